package ldbcfile

import (
	"time"
)

// Person is one row of person_0_0.csv (and of insert_person.csv).
type Person struct {
	ID        int64
	FirstName string
	LastName  string
	// Gender is GenderMale or GenderFemale.
	Gender string
	// Birthday is a date: midnight UTC.
	Birthday time.Time
	// CreationDate is UTC with millisecond precision.
	CreationDate time.Time
	// LocationIP is a dotted IPv4 address.
	LocationIP  string
	BrowserUsed string
}
