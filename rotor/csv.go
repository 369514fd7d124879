package rotor

import (
	"bufio"
	"io"
	"strconv"
)

// CSVHeader is the header row of WriteCSV.
var CSVHeader = []string{"switch", "slot", "start_ps", "duration_ps", "reconf_ps", "src", "dst"}

// WriteCSV writes s as a table with one row per switch, slot and source
// node, in that order (the order of Matchings), under CSVHeader:
//
//	switch,slot,start_ps,duration_ps,reconf_ps,src,dst
//
// start_ps is when the switch starts the slot in the cycle that begins at
// time 0 (its offset plus the durations of the earlier slots),
// duration_ps the slot's length including its reconf_ps of night, and dst
// the node src's uplink reaches, -1 when the port is idle (as in the JSON
// matchings). Times are integer picoseconds. Kind and Meta are not written:
// CSV is an export for plotting and spreadsheets, and ReadJSON reads back
// only the JSON form. It validates s first and writes nothing if s is
// invalid; equal schedules give identical bytes.
func WriteCSV(w io.Writer, s *Schedule) error {
	if err := s.Validate(); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	b := make([]byte, 0, 256)
	for i, h := range CSVHeader {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, h...)
	}
	b = append(b, '\n')
	var prefix []byte // the columns before src: the same for a slot's n rows
	for sw, slots := range s.Matchings {
		start := Time(0)
		if s.SwitchOffsets != nil {
			start = s.SwitchOffsets[sw]
		}
		for t, m := range slots {
			d := s.SlotDuration(t)
			prefix = strconv.AppendInt(prefix[:0], int64(sw), 10)
			prefix = append(prefix, ',')
			prefix = strconv.AppendInt(prefix, int64(t), 10)
			prefix = append(prefix, ',')
			prefix = strconv.AppendInt(prefix, int64(start), 10)
			prefix = append(prefix, ',')
			prefix = strconv.AppendInt(prefix, int64(d), 10)
			prefix = append(prefix, ',')
			prefix = strconv.AppendInt(prefix, int64(s.Reconf), 10)
			prefix = append(prefix, ',')
			for u, v := range m {
				b = append(b, prefix...)
				b = strconv.AppendInt(b, int64(u), 10)
				b = append(b, ',')
				b = strconv.AppendInt(b, int64(v), 10)
				b = append(b, '\n')
				if len(b) > 32<<10 {
					if _, err := bw.Write(b); err != nil {
						return err
					}
					b = b[:0]
				}
			}
			start += d
		}
	}
	if _, err := bw.Write(b); err != nil {
		return err
	}
	return bw.Flush()
}
