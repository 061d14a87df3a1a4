package datagen

import "math"

// activityTargets are the row counts of the activity files the generator
// aims at for one scale factor.
type activityTargets struct {
	forums, members, forumTags        float64
	posts, postTags                   float64
	comments, commentTags, replyPosts float64
	likesPost, likesComment           float64
}

// specActivityRow is one scale factor's activity counts in the LDBC SNB
// specification's entity table (tables/legacy/
// table-number-of-entities-interactive.tex of ldbc_snb_docs: the Hadoop
// datagen's CsvBasic output, 100% of the network as the bulk data set).
type specActivityRow struct {
	sf      float64
	persons float64
	t       activityTargets
}

// specActivity returns the specification's activity counts per LDBC scale
// factor, ascending.
func specActivity() []specActivityRow {
	return []specActivityRow{
		{0.1, 1_700, activityTargets{16_818, 266_965, 54_288, 168_873, 59_862, 203_354, 232_524, 99_802, 97_638, 96_865}},
		{0.3, 3_900, activityTargets{38_050, 861_079, 124_186, 404_531, 207_814, 682_061, 807_266, 335_508, 328_473, 412_010}},
		{1, 11_000, activityTargets{110_347, 3_345_548, 354_943, 1_237_554, 816_048, 2_581_736, 3_145_443, 1_271_351, 1_303_778, 1_946_260}},
		{3, 27_000, activityTargets{271_226, 10_352_102, 878_307, 3_200_561, 2_521_635, 7_882_971, 9_688_491, 3_885_133, 4_120_299, 6_868_912}},
		{10, 73_000, activityTargets{727_502, 35_510_056, 2_364_249, 9_119_229, 8_584_195, 26_540_464, 32_922_873, 13_075_370, 14_228_924, 25_596_818}},
		{30, 184_000, activityTargets{1_835_458, 110_335_311, 5_941_428, 24_346_116, 26_346_801, 80_390_821, 100_818_244, 39_601_273, 44_582_924, 84_821_954}},
		{100, 499_000, activityTargets{4_982_966, 362_933_964, 16_147_466, 70_420_477, 86_600_144, 261_475_982, 330_756_583, 128_804_923, 149_809_880, 301_042_048}},
	}
}

// activityFor returns the activity counts for n persons: the
// specification's row when n is an LDBC scale factor's person count, else
// the per-person rates of the nearest smaller row (SF 0.1 for test scale
// factors) times n.
func activityFor(n int) activityTargets {
	rows := specActivity()
	best := rows[0]
	for _, r := range rows {
		if float64(n) >= r.persons {
			best = r
		}
	}
	if math.Abs(float64(n)-best.persons) < 0.5 {
		return best.t
	}
	k := float64(n) / best.persons
	t := best.t
	for _, p := range []*float64{&t.forums, &t.members, &t.forumTags, &t.posts, &t.postTags,
		&t.comments, &t.commentTags, &t.replyPosts, &t.likesPost, &t.likesComment} {
		*p *= k
	}
	return t
}
