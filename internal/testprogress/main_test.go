package main

import (
	"strings"
	"testing"
	"time"
)

func TestPrinter(t *testing.T) {
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := func() time.Time { return clock }
	tests := []struct {
		name  string
		input string
		code  int
		want  []string
		not   []string
	}{
		{"all pass", `{"Action":"start","Package":"a"}
{"Action":"output","Package":"a","Test":"TestX","Output":"noise\n"}
{"Action":"pass","Package":"a","Test":"TestX","Elapsed":0.1}
{"Action":"pass","Package":"a","Elapsed":1.5}
{"Action":"skip","Package":"b","Elapsed":0}
`, 0, []string{"ok   a 1.5s", "1 packages ok, 0 failed, 1 without tests"}, []string{"noise", " b"}},
		{"a failing test shows its output", `{"Action":"start","Package":"a"}
{"Action":"output","Package":"a","Test":"TestY","Output":"    y_test.go:3: boom\n"}
{"Action":"fail","Package":"a","Test":"TestY","Elapsed":0.2}
{"Action":"fail","Package":"a","Elapsed":0.3}
`, 1, []string{"--- FAIL a TestY (0.2s)", "y_test.go:3: boom", "FAIL a 0.3s", "FAIL: a"}, nil},
		{"build failure", `{"Action":"build-output","Package":"a","Output":"a.go:1: syntax error\n"}
{"Action":"build-fail","Package":"a"}
`, 1, []string{"FAIL a [build failed]", "a.go:1: syntax error"}, nil},
		{"plain lines pass through", "# some go message\n", 1, []string{"# some go message"}, nil},
		{"input ends mid-package", `{"Action":"start","Package":"a"}
`, 1, []string{"0 packages ok"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			p := newPrinter(&b, now)
			if code := p.run(strings.NewReader(tt.input)); code != tt.code {
				t.Errorf("exit %d, want %d\n%s", code, tt.code, b.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, b.String())
				}
			}
			for _, n := range tt.not {
				if strings.Contains(b.String(), n) {
					t.Errorf("output has %q:\n%s", n, b.String())
				}
			}
		})
	}
}

func TestHeartbeat(t *testing.T) {
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var b strings.Builder
	p := newPrinter(&b, func() time.Time { return clock })
	p.handle(event{Action: "start", Package: "slow"})
	clock = clock.Add(90 * time.Second)
	p.heartbeat()
	if !strings.Contains(b.String(), "… 90s: running slow (90s)") {
		t.Errorf("heartbeat: %q", b.String())
	}
}
