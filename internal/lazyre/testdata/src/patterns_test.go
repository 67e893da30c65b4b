package src

var ignored = lazyRE(`test files are not scanned`)
