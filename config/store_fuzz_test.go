package config

import (
	"net/url"
	"testing"
)

// FuzzRedactURL feeds store URLs, as operators write them and mangled, to
// the redaction `nadine config` prints through: it never panics and never
// prints a password it could parse.
func FuzzRedactURL(f *testing.F) {
	for _, s := range []string{
		"postgres://nadine:s3cret@db.lab:5432/nadine?sslmode=verify-full",
		"postgresql://nadine@db.lab/nadine?password=s3cret&sslmode=require",
		"postgres://:s3cret@[::1]:5432/db",
		"postgres://a%3Ab:c%40d@host/db",
		"postgres:///db?host=/var/run/postgresql",
		"", "postgres://", "not a url", "postgres://u:p@h/d?password=x&password=y",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := RedactURL(s)
		if _, err := url.Parse(s); err != nil {
			if out != s {
				t.Fatalf("RedactURL(%q) = %q: an unparsable URL is left as it is (validation refuses it)", s, out)
			}
			return
		}
		u, err := url.Parse(out)
		if err != nil {
			t.Fatalf("RedactURL(%q) = %q, which does not parse: %v", s, out, err)
		}
		if p, ok := u.User.Password(); ok && p != "REDACTED" {
			t.Fatalf("RedactURL(%q) = %q still holds the password %q", s, out, p)
		}
		for _, p := range u.Query()["password"] {
			if p != "REDACTED" {
				t.Fatalf("RedactURL(%q) = %q still holds the query password %q", s, out, p)
			}
		}
	})
}
