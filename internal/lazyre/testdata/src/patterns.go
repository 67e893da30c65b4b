package src

// A fixture for TestSources: two constant patterns, one built at run
// time, and calls the scan must pass over.

var (
	a = lazyRE(`a+b`)
	b = lazyRE("x" + `|y` + ("z"))
	c = screened(`\d`, nil)
	d = lazyRE(pattern())
	e = other(`ignored`)
	f = screened(`ignored: one argument`)
	g = lazyre.New(`q+`)
)
