package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/fence"
)

// DefaultOpenWeatherMapURL is OpenWeatherMap's base URL.
const DefaultOpenWeatherMapURL = "https://api.openweathermap.org"

// DefaultWeatherLocation is where Nadine lives: an empty Weather
// App input asks for the weather here.
const DefaultWeatherLocation = "Carouge,CH"

// WeatherConfig configures the Weather App over OpenWeatherMap. The zero
// value (apart from APIKey) gives the defaults.
type WeatherConfig struct {
	// APIKey is the OpenWeatherMap key (OPENWEATHERMAP_API_KEY); without it
	// New does not register the tool. It travels as the appid query
	// parameter and is never logged nor put in an error.
	APIKey string
	// BaseURL defaults to DefaultOpenWeatherMapURL.
	BaseURL string
	// HTTPClient defaults to http.DefaultClient.
	HTTPClient *http.Client
	// Timeout bounds one lookup; zero means 10 seconds, negative means only
	// the caller's context.
	Timeout time.Duration
	// DefaultLocation answers an empty input; default DefaultWeatherLocation.
	DefaultLocation string
	// MaxChars caps the fenced content, in characters; default 600.
	MaxChars int
}

func (c WeatherConfig) withDefaults() WeatherConfig {
	if c.BaseURL == "" {
		c.BaseURL = DefaultOpenWeatherMapURL
	}
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	if c.DefaultLocation == "" {
		c.DefaultLocation = DefaultWeatherLocation
	}
	if c.MaxChars <= 0 {
		c.MaxChars = 600
	}
	return c
}

// Weather is the Weather App tool.
type Weather struct {
	cfg    WeatherConfig
	svc    service
	logger *slog.Logger
}

var _ nadine.Tool = (*Weather)(nil)

// NewWeather returns the Weather App tool.
func NewWeather(cfg WeatherConfig, logger *slog.Logger) *Weather {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Weather{
		cfg:    cfg.withDefaults(),
		svc:    service{pkg: "weather", name: "OpenWeatherMap", keyEnv: OpenWeatherMapKeyEnv, secret: cfg.APIKey},
		logger: logger,
	}
}

// Name returns "Weather App".
func (w *Weather) Name() string { return NameWeather }

// Description says when to use the tool.
func (w *Weather) Description() string {
	return "Use it when the human asks about the current weather somewhere. " +
		"Input: the place as City,CountryCode, for example \"London,GB\" or \"Geneva,CH\"; " +
		"an empty input gives the weather where you are (" + w.cfg.DefaultLocation + ")."
}

// owmResponse holds the parts of OpenWeatherMap's current weather that the
// observation uses.
type owmResponse struct {
	Name string `json:"name"`
	Sys  struct {
		Country string `json:"country"`
	} `json:"sys"`
	Weather []struct {
		Main        string `json:"main"`
		Description string `json:"description"`
	} `json:"weather"`
	Main *struct {
		Temp      float64 `json:"temp"`
		FeelsLike float64 `json:"feels_like"`
		TempMin   float64 `json:"temp_min"`
		TempMax   float64 `json:"temp_max"`
		Humidity  float64 `json:"humidity"`
	} `json:"main"`
	Wind struct {
		Speed float64 `json:"speed"` // metres per second with units=metric
	} `json:"wind"`
}

var commaSpaceRE = regexp.MustCompile(`\s*,\s*`)

// location turns the model's input into OpenWeatherMap's q ("London,GB"),
// or the default location when empty.
func (w *Weather) location(in string) string {
	s := cleanInput(in)
	s = strings.Join(strings.Fields(s), " ")
	s = commaSpaceRE.ReplaceAllString(s, ",")
	s = strings.Trim(s, ",. ")
	if s == "" {
		return w.cfg.DefaultLocation
	}
	return s
}

// Call returns the weather at in.Text fenced as data, with an instruction
// to summarize it; an unknown place gets an observation saying so.
func (w *Weather) Call(ctx context.Context, in nadine.ToolInput) (string, error) {
	loc := w.location(in.Text)
	q := url.Values{}
	q.Set("q", loc)
	q.Set("appid", w.cfg.APIKey)
	q.Set("units", "metric")
	ctx, cancel := withTimeout(ctx, w.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, w.cfg.BaseURL+"/data/2.5/weather?"+q.Encode(), nil)
	if err != nil {
		return "", nadine.Errorf(nadine.EINVALID, "weather: build request: %s", w.svc.redact(err.Error()))
	}
	status, data, err := w.svc.do(ctx, w.cfg.HTTPClient, req)
	if err != nil {
		w.logger.WarnContext(ctx, "openweathermap request failed", "location", nadine.Content(loc), "err", err)
		return "", err
	}
	switch {
	case status == http.StatusNotFound:
		w.logger.InfoContext(ctx, "openweathermap: place not found", "location", nadine.Content(loc))
		return fmt.Sprintf("The weather service does not know the place %q. Tell the human you could not find that place, and ask where exactly it is.", truncate(cleanText(loc), 80)), nil
	case status != http.StatusOK:
		err := w.svc.statusError(status, data)
		w.logger.WarnContext(ctx, "openweathermap refused", "location", nadine.Content(loc), "status", status, "err", err)
		return "", err
	}
	var res owmResponse
	if err := json.Unmarshal(data, &res); err != nil {
		return "", nadine.Errorf(nadine.EBADOUTPUT, "weather: decode OpenWeatherMap response: %w", err)
	}
	if res.Main == nil {
		return "", nadine.Errorf(nadine.EBADOUTPUT, "weather: OpenWeatherMap response has no temperatures")
	}
	place := joinNonEmpty(", ", cleanText(res.Name), cleanText(res.Sys.Country))
	if place == "" {
		place = cleanText(loc)
	}
	var conditions []string
	for _, c := range res.Weather {
		d := cleanText(c.Description)
		if d == "" {
			d = cleanText(c.Main)
		}
		if d != "" {
			conditions = append(conditions, d)
		}
	}
	m := res.Main
	lines := []string{
		field("Place", place),
		field("Sky", strings.Join(conditions, ", ")),
		"Temperature: " + celsius(m.Temp) + ", feels like " + celsius(m.FeelsLike),
		"Today: between " + celsius(m.TempMin) + " and " + celsius(m.TempMax),
		fmt.Sprintf("Humidity: %d percent", int(math.Round(m.Humidity))),
		fmt.Sprintf("Wind: %d kilometres per hour", int(math.Round(res.Wind.Speed*3.6))),
	}
	block, _ := fence.Block(fence.Weather, lines, w.cfg.MaxChars)
	return "Summarize this weather for the human in under 25 words, with temperatures in degrees Celsius.\n" + block, nil
}

// celsius writes a temperature for text-to-speech: "12 degrees Celsius",
// "minus 3 degrees Celsius".
func celsius(t float64) string {
	n := int(math.Round(t))
	if n < 0 {
		return fmt.Sprintf("minus %d degrees Celsius", -n)
	}
	return fmt.Sprintf("%d degrees Celsius", n)
}
