package server

import (
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/session"
	"github.com/handoff-cli/handoff/store"
)

// searchQuery reads ?q=, ?workflow= (an id or unique prefix, through the
// session resolver) and ?limit=.
func (s *Server) searchQuery(r *http.Request) (store.SearchQuery, error) {
	q := r.URL.Query()
	sq := store.SearchQuery{Text: q.Get("q")}
	if ref := q.Get("workflow"); ref != "" {
		wf, err := session.Resolve(r.Context(), s.cfg.Store, session.Ref{Workflow: ref})
		if err != nil {
			return sq, err
		}
		sq.WorkflowID = wf.ID
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return sq, handoff.Errorf(handoff.EINVALID, "limit must be a number, got %q", v)
		}
		sq.Limit = n
	}
	return sq, nil
}

// search is GET /api/search?q=…: the sessions whose snapshots hold every
// word, best first, with the fields they are in and a snippet.
func (s *Server) search(r *http.Request) (int, any, error) {
	q, err := s.searchQuery(r)
	if err != nil {
		return 0, nil, err
	}
	hits, err := s.cfg.Store.Search(r.Context(), q)
	if err != nil {
		return 0, nil, err
	}
	if hits == nil {
		hits = []store.SearchHit{}
	}
	return http.StatusOK, map[string]any{"query": q.Text, "hits": hits}, nil
}

// searchPage is the dashboard's search results.
func (s *Server) searchPage(r *http.Request) (*template.Template, any, error) {
	q, err := s.searchQuery(r)
	if err != nil {
		return nil, nil, err
	}
	data := map[string]any{"Title": "Search", "Query": q.Text}
	if strings.TrimSpace(q.Text) == "" {
		return s.pages.search, data, nil
	}
	hits, err := s.cfg.Store.Search(r.Context(), q)
	if err != nil {
		return nil, nil, err
	}
	terms, _ := store.QueryTerms(q.Text)
	type result struct {
		store.SearchHit
		Parts []part
	}
	results := make([]result, 0, len(hits))
	for _, h := range hits {
		results = append(results, result{SearchHit: h, Parts: marks(h.Snippet, terms)})
	}
	data["Results"] = results
	return s.pages.search, data, nil
}

// part is a piece of a snippet, marked when it is a query word.
type part struct {
	Text string
	Mark bool
}

// marks splits text into parts, marking the words of terms (as Terms
// splits them), so the template can highlight them without any HTML in
// the data.
func marks(text string, terms []string) []part {
	var out []part
	word := func(r rune) bool { return store.TermText(string(r)) != "" }
	start, inWord := 0, false
	flush := func(end int, isWord bool) {
		if end <= start {
			return
		}
		seg := text[start:end]
		m := false
		if isWord {
			lw := strings.ToLower(seg)
			for _, t := range terms {
				if lw == t {
					m = true
				}
			}
		}
		if n := len(out); n > 0 && !m && !out[n-1].Mark {
			out[n-1].Text += seg
		} else {
			out = append(out, part{Text: seg, Mark: m})
		}
		start = end
	}
	for i, r := range text {
		if w := word(r); w != inWord {
			flush(i, inWord)
			inWord = w
		}
	}
	flush(len(text), inWord)
	return out
}
