package conversation

import (
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

func TestTaskSentencesAreNoConstraints(t *testing.T) {
	for _, tc := range []struct {
		sent string
		want bool
	}{
		// Requests that carry a constraint word.
		{"Please move the cuda stuff into a folder as well but dont bother adding more to it.", false},
		{"Let us now continue to ensure the CPU version is fully implemented and that all the methods have tests.", false},
		{"please review PoIValidator.ts and help clean up any logic that feels brittle. ensure schema imports are correct.", false},
		{"Ok, let's decide on what we use for that ID, and if it's not human friendly, store a name too.", false},
		{"Please ensure the export works for empty ledgers.", false},
		// Rules, with or without "please".
		{"Please don't push anything.", true},
		{"Please never use npm or yarn.", true},
		{"please keep the column order exactly as it is", true},
		{"Please do not edit a migration that was merged.", true},
		{"Let's keep the public API source-compatible.", true},
		{"Don't touch the CSV importer.", true},
		{"Use pnpm, never npm.", true},
		{"Always run the linter before committing.", true},
	} {
		if got := IsConstraint(tc.sent); got != tc.want {
			t.Errorf("isConstraint(%q) = %v, want %v", tc.sent, got, tc.want)
		}
	}
}

func TestConstraintQuotedInTheRequestOpeningIsDropped(t *testing.T) {
	c := sessiontest.NewConvo(t)
	c.User("Add a due_date column to invoices and expose it in GET /invoices/:id.")
	c.Say("Done.")
	c.User("Actually make due_date nullable and don't backfill — billing wants to set it per customer later. Remember the migration rules.")
	c.Say("Adding a new migration.")
	conv := Read(c.Transcript())
	for _, k := range conv.Constraints {
		if k.Text == "Actually make due_date nullable and don't backfill — billing wants to set it per customer later." {
			t.Errorf("constraint %q repeats the opening of the latest request", k.Text)
		}
	}

	// A rule stated on its own stays, as does one past the quoted
	// opening of a long request.
	if cons := withoutQuotedEchoes([]handoff.Constraint{{Text: "Don't push anything."}}, "Commit it on a branch. Don't push anything."); len(cons) != 1 {
		t.Errorf("constraints = %+v, want the rule that opens its sentence kept", cons)
	}
	// Kept, it goes after the rules the prompt quotes nowhere else.
	cons := withoutQuotedEchoes([]handoff.Constraint{{Text: "wait — don't modify application code at all."}, {Text: "Keep the syntax line first."}}, "wait — don't modify application code at all. Just point the check at /status.")
	if len(cons) != 2 || cons[0].Text != "Keep the syntax line first." {
		t.Errorf("constraints = %+v, want the rule said nowhere else first, then the quoted one", cons)
	}
	long := "The OFX importer double counts transfers between my own accounts: they show up once as an expense in checking and once as income in savings. Skip transactions whose memo starts with TRANSFER unless --include-transfers is given. Don't change the CSV importer, it's shared with my partner's setup."
	cons = withoutQuotedEchoes([]handoff.Constraint{{Text: "Don't change the CSV importer, it's shared with my partner's setup."}}, long, "")
	if len(cons) != 1 {
		t.Errorf("constraints = %+v, want the rule past the quoted opening kept", cons)
	}
}
