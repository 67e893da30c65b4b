package server

import "testing"

// TestStaticServesNoTemplates: /static/ serves web/static's files and
// nothing else, however the path is escaped.
func TestStaticServesNoTemplates(t *testing.T) {
	f := newFixture(t, nil)
	tests := []struct {
		path string
		ok   bool
	}{
		{"/static/app.js", true},
		{"/static/..%2flayout.html", false},
		{"/static/..%2Flayout.html", false},
		{"/static/..%5clayout.html", false},
		{"/static/%2e%2e%2fworkflow.html", false},
		{"/static/..%2f..%2fserver.go", false},
		{"/static/.", false},
		{"/static/layout.html", false},
	}
	for _, tt := range tests {
		status, body := f.do("GET", tt.path, nil)
		if got := status == 200; got != tt.ok {
			t.Errorf("GET %s: %d (%d bytes), want served %v", tt.path, status, len(body), tt.ok)
		}
	}
}
