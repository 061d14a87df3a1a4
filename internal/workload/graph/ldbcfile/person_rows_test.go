package ldbcfile

import (
	"strconv"
	"time"
)

// AppendPerson (for the tests) appends p as one person row, newline included, in the column
// order of PersonHeader.
func AppendPerson(dst []byte, p Person) []byte {
	dst = strconv.AppendInt(dst, p.ID, 10)
	dst = append(dst, Separator)
	dst = append(dst, p.FirstName...)
	dst = append(dst, Separator)
	dst = append(dst, p.LastName...)
	dst = append(dst, Separator)
	dst = append(dst, p.Gender...)
	dst = append(dst, Separator)
	dst = AppendDate(dst, p.Birthday)
	dst = append(dst, Separator)
	dst = AppendDateTime(dst, p.CreationDate)
	dst = append(dst, Separator)
	dst = append(dst, p.LocationIP...)
	dst = append(dst, Separator)
	dst = append(dst, p.BrowserUsed...)
	return append(dst, '\n')
}

// AppendKnows appends one person_knows_person row, newline included.
func AppendKnows(dst []byte, a, b int64, created time.Time) []byte {
	dst = strconv.AppendInt(dst, a, 10)
	dst = append(dst, Separator)
	dst = strconv.AppendInt(dst, b, 10)
	dst = append(dst, Separator)
	dst = AppendDateTime(dst, created)
	return append(dst, '\n')
}
