package server

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/handoff-cli/handoff"
)

func TestToken(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.Token = "s3cret-token" })
	f.checkpoint("")
	f.token = ""
	f.wantError("GET", "/api/workflows", nil, 401, codeUnauthorized)
	f.wantError("GET", "/", nil, 401, codeUnauthorized)
	f.wantError("POST", "/api/workflows/"+sampleWF+"/pause", nil, 401, codeUnauthorized)
	f.wantError("GET", "/api/workflows", nil, 401, codeUnauthorized, "Authorization", "Bearer wrong")
	f.wantError("GET", "/api/workflows", nil, 401, codeUnauthorized, "Authorization", "Basic czNjcmV0LXRva2Vu")
	f.wantError("GET", "/?token=wrong", nil, 401, codeUnauthorized)
	if got, b := f.do("GET", "/api/workflows", nil, "Authorization", "Bearer s3cret-token"); got != 200 {
		t.Fatalf("with the token: %d %s", got, b)
	}

	// The dashboard's login: ?token= becomes a cookie, then pages load.
	client := f.srv.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := client.Get(f.srv.URL + "/?token=s3cret-token")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	cookies := resp.Cookies()
	if resp.StatusCode != http.StatusSeeOther || len(cookies) != 1 || !cookies[0].HttpOnly || cookies[0].SameSite != http.SameSiteStrictMode {
		t.Fatalf("login: %d %v", resp.StatusCode, cookies)
	}
	req, _ := http.NewRequest("GET", f.srv.URL+"/", nil)
	req.AddCookie(cookies[0])
	resp, err = client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "ratelimit-api") {
		t.Fatalf("page with the cookie: %d", resp.StatusCode)
	}
}

func TestCheckBind(t *testing.T) {
	tests := []struct {
		addr, token string
		ok          bool
	}{
		{"127.0.0.1:7420", "", true},
		{"127.9.9.9:7420", "", true},
		{"[::1]:7420", "", true},
		{"localhost:7420", "", true},
		{"0.0.0.0:7420", "", false},
		{":7420", "", false},
		{"[::]:7420", "", false},
		{"192.168.1.10:7420", "", false},
		{"example.com:7420", "", false},
		{"0.0.0.0:7420", "tok", true},
		{":7420", "tok", true},
		{"no-port", "tok", false},
	}
	for _, tt := range tests {
		err := CheckBind(tt.addr, tt.token)
		if (err == nil) != tt.ok {
			t.Errorf("CheckBind(%q, %q) = %v, want ok=%v", tt.addr, tt.token, err, tt.ok)
		}
		if err != nil && handoff.ErrorCode(err) != handoff.EINVALID {
			t.Errorf("CheckBind(%q): code %s, want invalid", tt.addr, handoff.ErrorCode(err))
		}
	}
}

// TestListenAndServe starts the real listener, serves a request, and
// shuts down cleanly when its context ends (what SIGINT/SIGTERM do).
func TestListenAndServe(t *testing.T) {
	if err := ListenAndServe(context.Background(), "0.0.0.0:0", "", http.NotFoundHandler(), nil, nil); handoff.ErrorCode(err) != handoff.EINVALID {
		t.Fatalf("non-loopback without a token: %v", err)
	}
	f := newFixture(t, nil)
	s, err := New(Config{Store: f.store, Counter: testCounter(t)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() { done <- ListenAndServe(ctx, "127.0.0.1:0", "", s, nil, func(a net.Addr) { addrc <- a }) }()
	var addr net.Addr
	select {
	case addr = <-addrc:
	case err := <-done:
		t.Fatalf("did not start: %v", err)
	}
	resp, err := http.Get("http://" + addr.String() + "/api/workflows")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("shutdown: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("did not shut down")
	}
	if _, err := http.Get("http://" + addr.String() + "/api/workflows"); err == nil {
		t.Error("still serving after shutdown")
	}
}

// TestRebindingHostRefused: without a token, a request whose Host is not a
// localhost name (a DNS-rebound site) is refused, reads included.
func TestRebindingHostRefused(t *testing.T) {
	f := newFixture(t, nil)
	for host, ok := range map[string]bool{
		"127.0.0.1:7420": true, "localhost:7420": true, "[::1]:7420": true, "app.localhost": true,
		"evil.example:7420": false, "evil.example": false, "192.168.1.5:7420": false,
	} {
		req, _ := http.NewRequest("GET", f.srv.URL+"/api/workflows", nil)
		req.Host = host
		resp, err := f.srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if (resp.StatusCode == 200) != ok {
			t.Errorf("Host %s: %d, want allowed=%v", host, resp.StatusCode, ok)
		}
	}
	// With a token the bearer decides, whatever the name.
	g := newFixture(t, func(c *Config) { c.Token = "t" })
	req, _ := http.NewRequest("GET", g.srv.URL+"/api/workflows", nil)
	req.Host = "handoff.internal:7420"
	req.Header.Set("Authorization", "Bearer t")
	resp, err := g.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("token and another host name: %d", resp.StatusCode)
	}
}
