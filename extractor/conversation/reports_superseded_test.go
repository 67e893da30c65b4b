package conversation

import "testing"

// TestVersionedFiles: file names with a version are split into stem,
// version and rest; numbered files without a "v" or a dot, and names
// whose stem is too short to recognise, are not versioned.
func TestVersionedFiles(t *testing.T) {
	t.Parallel()
	cases := []struct {
		line string
		want []VersionedFile
	}{
		{"`vsla_paper_v0.43.pdf` (current)", []VersionedFile{{"vsla_paper_v", "0.43", ".pdf"}}},
		{"built app-1.2.3.tar.gz", []VersionedFile{{"app-", "1.2.3", ".tar.gz"}}},
		{"see api_v2.yaml and api_v3_draft.yaml", []VersionedFile{{"api_v", "2", ".yaml"}, {"api_v", "3", "_draft.yaml"}}},
		{"run_3.log and step-12.txt", nil},
		{"v1.2.tar.gz", nil},
		{"Python 3.11 and go1.22", nil},
	}
	for _, tc := range cases {
		got := VersionedFiles(tc.line)
		if len(got) != len(tc.want) {
			t.Errorf("versionedFiles(%q) = %v, want %v", tc.line, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("versionedFiles(%q)[%d] = %v, want %v", tc.line, i, got[i], tc.want[i])
			}
		}
	}
}
