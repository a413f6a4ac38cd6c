package config

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/url"
	"reflect"
	"regexp"
	"strings"

	"github.com/nadine-robot/nadine/mqtt"
)

// BrokerUser is one client the embedded broker accepts; its password is in
// PasswordEnv, else NADINE_MQTT_PASSWORD_<USERNAME> (non-alphanumerics "_").
type BrokerUser struct {
	Username    string `yaml:"username"`
	PasswordEnv string `yaml:"password_env"`
}

// passwordEnv is the variable holding the user's password.
func (u BrokerUser) passwordEnv() string {
	if u.PasswordEnv != "" {
		return u.PasswordEnv
	}
	return "NADINE_MQTT_PASSWORD_" + strings.ToUpper(nonWordRE.ReplaceAllString(u.Username, "_"))
}

var nonWordRE = regexp.MustCompile(`[^A-Za-z0-9]+`)

// BrokerUsers are the broker's clients; none means any client may connect.
type BrokerUsers []BrokerUser

// SetEnv reads NADINE_MQTT_BROKER_USERS: "perception,control:CONTROL_PW".
func (us *BrokerUsers) SetEnv(s string) error {
	var out BrokerUsers
	for _, p := range envPairs(s) {
		out = append(out, BrokerUser{Username: p[0], PasswordEnv: p[1]})
	}
	*us = out
	return nil
}

// envPairs reads "name" or "name:value" entries, comma-separated.
func envPairs(s string) [][2]string {
	var out [][2]string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		name, value, _ := strings.Cut(part, ":")
		out = append(out, [2]string{strings.TrimSpace(name), strings.TrimSpace(value)})
	}
	return out
}

// envSetter is a field that parses its own variable.
type envSetter interface{ SetEnv(string) error }

// validatePrivacy checks the event streams, token failures and broker users.
func (c *Config) validatePrivacy(bad func(field, format string, args ...any)) {
	if c.HTTP.MaxStreams < 1 {
		bad("http.max_streams", "must be at least 1")
	}
	if c.HTTP.MaxTokenFailures < 1 {
		bad("http.max_token_failures", "must be at least 1")
	}
	seen := map[string]bool{}
	for i, u := range c.MQTT.BrokerUsers {
		field := fmt.Sprintf("mqtt.broker_users[%d]", i)
		switch {
		case strings.TrimSpace(u.Username) == "":
			bad(field+".username", "must not be empty")
		case strings.ContainsAny(u.Username, ":,"):
			bad(field+".username", "must not contain ':' or ','")
		case seen[u.Username]:
			bad(field+".username", "%q is listed twice", u.Username)
		}
		seen[u.Username] = true
	}
	if len(c.MQTT.BrokerUsers) > 0 && c.MQTT.URL != "" {
		bad("mqtt.broker_users", "applies to the embedded broker only; mqtt.url names another broker")
	}
}

// BrokerAccounts adds nadine's own client to the broker's users (mqtt.username,
// else an internal one, random password); nil users: anyone may connect.
func (c *Config) BrokerAccounts(getenv func(string) string) (users map[string]string, self BrokerCredentials, err error) {
	self = BrokerCredentials{Username: c.MQTT.Username, Password: getenv(c.MQTT.PasswordEnv)}
	if len(c.MQTT.BrokerUsers) == 0 {
		return nil, self, nil
	}
	users = map[string]string{}
	for i, u := range c.MQTT.BrokerUsers {
		p := getenv(u.passwordEnv())
		if p == "" {
			return nil, self, &fieldError{path: fmt.Sprintf("mqtt.broker_users[%d]", i), msg: fmt.Sprintf("$%s holds no password for %q", u.passwordEnv(), u.Username)}
		}
		users[u.Username] = p
	}
	switch {
	case self.Username != "" && self.Password != "":
		if p, ok := users[self.Username]; ok && p != self.Password {
			return nil, self, &fieldError{path: "mqtt.username", msg: fmt.Sprintf("%q is a broker user with another password than $%s", self.Username, c.MQTT.PasswordEnv)}
		}
		users[self.Username] = self.Password
	default:
		var b [16]byte
		_, _ = rand.Read(b[:])
		self = BrokerCredentials{Username: "nadine-internal-" + hex.EncodeToString(b[:4]), Password: hex.EncodeToString(b[:])}
		users[self.Username] = self.Password
	}
	return users, self, nil
}

// BrokerCredentials are a user name and password of the broker.
type BrokerCredentials struct{ Username, Password string }

// loopbackAddr reports whether addr listens on loopback only ("[::1]:1883").
func loopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	return err == nil && mqtt.LoopbackHost(host)
}

// dsnPasswordRE matches a password in a key=value connection string.
var dsnPasswordRE = regexp.MustCompile(`(?i)\b(password|passwd|pwd)\s*=\s*('[^']*'|[^\s;]+)`)

// RedactURL hides the password of a URL (user info or ?password=) or of a
// key=value connection string; anything else is returned as it is.
func RedactURL(s string) string {
	if strings.Contains(s, "://") {
		if u, err := url.Parse(s); err == nil {
			changed := false
			if u.User != nil {
				if _, ok := u.User.Password(); ok {
					u.User = url.UserPassword(u.User.Username(), "REDACTED")
					changed = true
				}
			}
			if q := u.Query(); q.Has("password") {
				q.Set("password", "REDACTED")
				u.RawQuery = q.Encode()
				changed = true
			}
			if changed {
				// url.URL.String escapes nothing in REDACTED: the result
				// keeps the scheme, host and path as given.
				return u.String()
			}
		}
	}
	return dsnPasswordRE.ReplaceAllString(s, "${1}=REDACTED")
}

// redactURLs redacts every string of v, through structs, maps and slices,
// so that a URL field added later is redacted too.
func redactURLs(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() {
			v.SetString(RedactURL(v.String()))
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				redactURLs(v.Field(i))
			}
		}
	case reflect.Slice:
		if v.IsNil() || !v.CanSet() {
			return
		}
		// A copy: the configuration printed shares its slices with the
		// one in use.
		cp := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		reflect.Copy(cp, v)
		for i := 0; i < cp.Len(); i++ {
			redactURLs(cp.Index(i))
		}
		v.Set(cp)
	case reflect.Map:
		if v.IsNil() {
			return
		}
		out := reflect.MakeMapWithSize(v.Type(), v.Len())
		iter := v.MapRange()
		for iter.Next() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(iter.Value())
			redactURLs(e)
			out.SetMapIndex(iter.Key(), e)
		}
		v.Set(out)
	}
}
