package ldbcfile

import (
	"errors"
	"io"
	"time"
)

// ReadPersons reads rows with PersonHeader and calls fn for each. Ids must
// be non-negative, gender male or female, dates in rd.Dates; anything else
// is a malformed line.
// Any of PersonHeaders is accepted; columns after the eighth (the
// composite and merge-foreign ones) are not part of Person.
func (rd Reader) ReadPersons(r io.Reader, fn func(Person) error) error {
	return rd.readPersons(r, PersonHeaders, fn)
}

// ReadInsertPersons reads insert_person.csv, which has the person format.
func (rd Reader) ReadInsertPersons(r io.Reader, fn func(Person) error) error {
	return rd.readPersons(r, []string{InsertPersonHeader}, fn)
}

func (rd Reader) readPersons(r io.Reader, headers []string, fn func(Person) error) error {
	return rd.ReadVariants(r, headers, func(_, _ int, f [][]byte) error {
		var p Person
		var err error
		if p.ID, err = ParseID(f[0]); err != nil {
			return malformed("id", err)
		}
		p.FirstName = string(f[1])
		p.LastName = string(f[2])
		switch string(f[3]) {
		case GenderMale:
			p.Gender = GenderMale
		case GenderFemale:
			p.Gender = GenderFemale
		default:
			return malformed("gender", errors.New("want male or female, got "+cut(f[3])))
		}
		if p.Birthday, err = ParseDateIn(f[4], rd.Dates); err != nil {
			return malformed("birthday", err)
		}
		if p.CreationDate, err = ParseDateTimeIn(f[5], rd.Dates); err != nil {
			return malformed("creationDate", err)
		}
		p.LocationIP = string(f[6])
		p.BrowserUsed = string(f[7])
		return fn(p)
	})
}

// ReadKnows reads rows with PersonKnowsPersonHeader: each friendship once,
// as the two person ids and the creation date of the friendship.
func (rd Reader) ReadKnows(r io.Reader, fn func(a, b int64, created time.Time) error) error {
	return rd.ReadRecords(r, PersonKnowsPersonHeader, func(f [][]byte) error {
		a, err := ParseID(f[0])
		if err != nil {
			return malformed("Person.id", err)
		}
		b, err := ParseID(f[1])
		if err != nil {
			return malformed("Person.id", err)
		}
		created, err := ParseDateTimeIn(f[2], rd.Dates)
		if err != nil {
			return malformed("creationDate", err)
		}
		return fn(a, b, created)
	})
}

// ReadKHopPersons reads rows with KHopPersonHeader: one start person id a row.
func (rd Reader) ReadKHopPersons(r io.Reader, fn func(personID int64) error) error {
	return rd.ReadRecords(r, KHopPersonHeader, func(f [][]byte) error {
		id, err := ParseID(f[0])
		if err != nil {
			return malformed("personId", err)
		}
		return fn(id)
	})
}

// ReadShortestPathPairs reads rows with ShortestPathHeader: two person ids a
// row.
func (rd Reader) ReadShortestPathPairs(r io.Reader, fn func(person1, person2 int64) error) error {
	return rd.ReadRecords(r, ShortestPathHeader, func(f [][]byte) error {
		a, err := ParseID(f[0])
		if err != nil {
			return malformed("person1Id", err)
		}
		b, err := ParseID(f[1])
		if err != nil {
			return malformed("person2Id", err)
		}
		return fn(a, b)
	})
}
