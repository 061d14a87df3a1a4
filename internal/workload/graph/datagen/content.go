package datagen

import "strings"

// Message text. LDBC takes post and comment text from DBpedia abstracts;
// stampede synthesises it: a post about tag T reads "About T, " followed by
// a run of words from a fixed pseudo-random corpus, and half of the
// comments are short interjections, as in LDBC. Lengths are in bytes.
const (
	postTextMin    = 40
	postTextMax    = 240
	commentTextMin = 20
	commentTextMax = 120
	shortComments  = 0.5
	corpusBytes    = 1 << 16
)

const corpusWordsText = `the of and to in is was for on as with by he at from his an were are which this be or has had
not first one their its new after but who they have her she two been other when there all during into school time may
years more most only over city some world would where later up such used many can state about national out known
university united then made people also music played team film country song album war best season game history between
became work three group world series while north south east west river part century born area life band government
family since american public house being won well club great early based include series called member home london
league around found second like large high within under held several number final best great place water light art
book love night power story local media market play world city open round small road power field major news`

// shortCommentTexts are the interjections.
func shortCommentTexts() []string {
	return []string{"ok", "good", "great", "cool", "thx", "thanks", "LOL", "yes", "no", "maybe",
		"I see", "right", "fine", "no way!", "duh", "roflol", "not that I know", "About that"}
}

// corpus is the text messages are cut from; read-only once built.
type corpus struct {
	text   []byte
	starts []int32 // offsets of word starts
	short  []string
}

// newCorpus builds the corpus deterministically (it does not depend on the
// seed).
func newCorpus() *corpus {
	words := strings.Fields(corpusWordsText)
	c := &corpus{text: make([]byte, 0, corpusBytes+64), short: shortCommentTexts()}
	for i := uint64(0); len(c.text) < corpusBytes; i++ {
		c.starts = append(c.starts, int32(len(c.text)))
		c.text = append(c.text, words[mix64(i^0xc0de)%uint64(len(words))]...)
		c.text = append(c.text, ' ')
	}
	return c
}

// appendRun appends about n bytes of corpus words starting at a random word,
// ending at a word boundary.
func (c *corpus) appendRun(b []byte, r *rng, n int) []byte {
	var s int
	for {
		s = int(c.starts[r.IntN(len(c.starts))])
		if s+n < len(c.text) {
			break
		}
	}
	run := c.text[s : s+n]
	for k := len(run) - 1; k > 0; k-- {
		if run[k] == ' ' {
			run = run[:k]
			break
		}
	}
	return append(b, run...)
}
