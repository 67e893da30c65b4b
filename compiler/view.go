package compiler

// View is what a resume template renders: the pieces that fit the budget,
// arranged into sections of ready-made markdown. Transcript text inside a
// section is already set apart as data: block quotes ("> "), “quoted”
// inline text or code spans, with anything that could start a heading or a
// fence escaped, so a template can place a section anywhere without letting
// transcript text read as part of the prompt's own structure.
type View struct {
	// Title is the prompt's first line, without the leading "# ".
	Title string
	// Header is one line: when the session ended, branch, model, context
	// use, and the snapshot's session number when it is stored.
	Header string
	// DataNote tells the reader that quoted text is data.
	DataNote string
	// Sections are the non-empty sections, in reading order.
	Sections []SectionView
	// NextStep is the snapshot's next step as shown ("" when none).
	NextStep string
	// ShowDetail is the command that prints the full records ("handoff
	// show <snapshot-id>"), or "" when the snapshot was not saved.
	ShowDetail string
}

// SectionView is one section of the prompt.
type SectionView struct {
	// Key names the section for templates: stop, next, request,
	// constraints, requests, plan, decisions, errors, tests, work, git,
	// recent, more.
	Key   string
	Title string
	Body  string
}

// Section returns the body of the section with the given key, or "" when
// it is empty or did not fit: {{.Section "errors"}}.
func (v View) Section(key string) string {
	for _, s := range v.Sections {
		if s.Key == key {
			return s.Body
		}
	}
	return ""
}

// view builds the View of the chosen pieces.
func (c *compilation) view(chosen []bool) View {
	v := View{NextStep: c.snap.NextStep}
	if c.snap.ID != "" {
		v.ShowDetail = DefaultShowCommand + " " + c.snap.ID
	}
	bodies := make([][]string, numSections)
	shownKind := map[string]bool{}
	for i, p := range c.pieces {
		if chosen[i] {
			shownKind[p.kind] = true
		}
	}
	for i, p := range c.pieces {
		if !chosen[i] && !p.fixed || p.needs != "" && !shownKind[p.needs] || c.said(chosen, i) {
			continue
		}
		if p.tail != "" && shownKind[p.tailKind] {
			p.text += p.tail
		}
		if p.alone != "" && !shownKind[p.refers] {
			p.text = p.alone
		}
		switch p.sec {
		case secTitle:
			v.Title = p.text
		case secHeader:
			v.Header = p.text
		case secNote:
			v.DataNote = p.text
		default:
			bodies[p.sec] = append(bodies[p.sec], p.text)
		}
	}
	for sec := secStop; sec < numSections; sec++ {
		if len(bodies[sec]) == 0 {
			continue
		}
		info := sectionInfo[sec]
		title := info.title
		if sec == secErrors && !shownKind["open errors"] && !shownKind["reported problems"] {
			// Only settled errors made it in: a heading that says "open"
			// over them would tell a successor to fix what is fixed.
			title = settledErrorsTitle
		}
		v.Sections = append(v.Sections, SectionView{Key: info.key, Title: title, Body: joinBody(bodies[sec])})
	}
	return v
}

// settledErrorsTitle heads the errors section when none shown is open.
const settledErrorsTitle = "Past errors (newest first)"

// joinBody joins a section's pieces: list items on consecutive lines,
// paragraphs (pieces spanning lines, or not list items) apart.
func joinBody(parts []string) string {
	var b []byte
	for i, p := range parts {
		if i > 0 {
			b = append(b, '\n')
			if !isListItem(p) || !isListItem(parts[i-1]) {
				b = append(b, '\n')
			}
		}
		b = append(b, p...)
	}
	return string(b)
}

func isListItem(s string) bool {
	return len(s) > 1 && (s[0] == '-' || s[0] == '*') && s[1] == ' '
}
