package sweep

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/rdcn/rdcn/stats"
)

func writeJSONFile(dir, name string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, name), append(b, '\n'), 0o644)
}

// table is a CSV file's content.
type table struct {
	header []string
	rows   [][]string
}

func tableOf(header []string, rows [][]string) table { return table{header, rows} }

func writeCSVFile(dir, name string, t table) error {
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		return err
	}
	if err := stats.WriteCSV(f, t.header, t.rows); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
