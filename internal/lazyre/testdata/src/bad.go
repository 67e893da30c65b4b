package src

var h = bad(`(unclosed`)
