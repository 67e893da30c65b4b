// Package conversation is the extractor's layer that reads what was said:
// the person's requests, goal and standing constraints, the assistant's
// reports and questions, the agent's handoff note, and where the session
// stopped. It builds on the facts layer (a report is checked against the
// calls) and knows nothing of decisions or the next step.
package conversation
