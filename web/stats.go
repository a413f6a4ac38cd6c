package web

import (
	"context"
	"net/http"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/turnstats"
)

// StatsFunc sums up the turns of [from, to) for one robot or all (robot
// ""), as sqlite.Stats.Summary does; now ends a period still running.
type StatsFunc func(ctx context.Context, from, to, now time.Time, robot string) (turnstats.Summary, error)

// TodayResponse is the body of GET /api/today: the figures and charts of
// the monitor's Today view, the same as `nadine report` writes.
type TodayResponse struct {
	Period  string             `json:"period"`
	Summary turnstats.Summary  `json:"summary"`
	Figures []turnstats.Figure `json:"figures"`
	Charts  []turnstats.Chart  `json:"charts"`
	Robots  []string           `json:"robots"`
}

// handleToday serves one day's figures: today (in the server's time zone),
// or ?date=YYYY-MM-DD; ?robot=NAME for one robot, else all.
func (s *Server) handleToday(w http.ResponseWriter, r *http.Request) {
	if s.opts.Stats == nil {
		s.writeError(w, nadine.Errorf(nadine.ENOTFOUND, "web: turn records are off (telemetry.stats: false)"))
		return
	}
	now := s.opts.Now()
	day := now
	if d := r.URL.Query().Get("date"); d != "" {
		t, err := time.ParseInLocation("2006-01-02", d, now.Location())
		if err != nil {
			s.writeError(w, invalid("date %q: want YYYY-MM-DD", d))
			return
		}
		day = t
	}
	robot := r.URL.Query().Get("robot")
	if robot != "" {
		if _, ok := s.byName[robot]; !ok {
			s.writeError(w, nadine.Errorf(nadine.ENOTFOUND, "web: no robot named %q", robot))
			return
		}
	}
	y, m, d := day.Date()
	from := time.Date(y, m, d, 0, 0, 0, 0, now.Location())
	to := time.Date(y, m, d+1, 0, 0, 0, 0, now.Location())
	sum, err := s.opts.Stats(r.Context(), from, to, now, robot)
	if err != nil {
		s.log.Warn("web: today: turn records not read", "err", err)
		s.writeError(w, nadine.Errorf(nadine.EUNAVAILABLE, "web: turn records not readable"))
		return
	}
	out := TodayResponse{Period: turnstats.Period(sum), Summary: sum, Figures: turnstats.Figures(sum), Charts: turnstats.Charts(sum)}
	for _, rb := range s.robots {
		out.Robots = append(out.Robots, rb.Name)
	}
	writeJSON(w, out)
}
