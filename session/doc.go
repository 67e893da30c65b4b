// Package session holds the use cases shared by every adapter: the CLI
// today, the REST API, the dashboard and the MCP server next. An adapter
// parses its input (flags, a request body), calls one function here, and
// renders what it returns; the pipeline itself — how a snapshot is
// assembled, what a checkpoint stores and in which transaction, how a
// workflow is found, how a resume is checked and recorded, how a history is
// extracted in bulk — lives here once, so every adapter behaves the same.
//
// The use cases reach the database through Store, an interface declared
// here by what they need, so a second backend and test fakes plug in.
package session
