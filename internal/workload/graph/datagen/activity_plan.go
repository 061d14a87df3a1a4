package datagen

import (
	"context"
	"math"
)

// The activity model: forums, posts, comments, likes and their tags.
//
// Every person owns one wall (members: their friends, who join when the
// friendship starts), a number of photo albums (members: some friends) and
// a number of groups (members: friends, friends of friends and strangers).
// Wall posts and photos are the owner's; group posts come from members;
// comments on posts come from the forum's members and form reply trees;
// likes come from members. Every count is proportional to the owner's
// weight, degree+1, so activity follows the knows degree; the forums and
// wall posts of a person are also proportional to how long the person has
// been a member (see rate), and a group's posts to its remaining lifetime
// squared, so activity grows about linearly over the period. The
// proportionality constants are solved from the LDBC specification's entity
// table (see spec.go) so that every file's row count lands on the
// specification's for the scale factor. Dates follow causality: a forum
// after its owner joined, a membership after the forum and the member,
// a post after its author's membership, a reply after its parent and a
// like after its message.
const (
	albumShare     = 0.6  // share of the non-wall forums that are albums
	wallPostShare  = 0.40 // share of the posts on walls
	photoShare     = 0.25 // share of the posts that are photos in albums
	maxAlbumMember = 0.25 // ceiling on the share of friends in an album
	groupFriends   = 0.4  // share of group members drawn among friends
	groupFoF       = 0.3  // ...among friends of friends; the rest strangers
	albumJoinMs    = 7 * dayMs
	groupJoinMs    = 30 * dayMs
	photoWindowMs  = 30 * dayMs
	replyDelayMs   = 2 * dayMs
	likeDelayMs    = 3 * dayMs
	paramMessages  = 2_000 // expected rows of interactive_message.csv
	activityChunk  = 32    // owners per unit of parallel work
)

// activityPlan holds what the activity stage needs besides the persons and
// the graph: per-person forum counts and the solved rates.
type activityPlan struct {
	t              activityTargets
	albums, groups []uint16
	// Expected counts per unit of owner weight.
	wallPosts, photos, groupMembers, groupPosts float64
	albumMemberP                                float64
	commentsPerPost, replyPostP                 float64
	likesPerPost, likesPerComment               float64
	forumTags, postTags, commentTags            float64
	sample                                      uint64 // message parameter threshold on a hash
}

// weight is person s's degree weight, degree+1: the size of what s's
// forums hold (photos per album, members and posts per group).
func (g *generator) weight(s uint32) float64 { return float64(g.graph.deg[s]) + 1 }

// rate is person s's activity weight: the degree weight times the share
// of the simulated period s has been a member, so that, as in LDBC's
// datagen, activity is a rate (forums and wall posts per month follow
// the number of friends) and persons who joined earlier have done more.
// Spread uniformly over each person's membership, the activity of the
// network then grows about linearly over time instead of piling up at
// the end of the period.
func (g *generator) rate(s uint32) float64 {
	return g.weight(s) * float64(endMs-g.persons[s].created) / float64(endMs-startMs)
}

// stochRound rounds x up with probability frac(x), so its mean is x.
func stochRound(r *rng, x float64) int {
	if x <= 0 {
		return 0
	}
	f := math.Floor(x)
	if r.Float64() < x-f {
		f++
	}
	return int(f)
}

// noisy draws a count with mean x and a uniform ±50% spread.
func noisy(r *rng, x float64) int { return stochRound(r, x*(0.5+r.Float64())) }

// poisson draws a Poisson(l) count (normal approximation above 30).
func poisson(r *rng, l float64) int {
	if l <= 0 {
		return 0
	}
	if l > 30 {
		return max(0, int(math.Round(l+math.Sqrt(l)*r.NormFloat64())))
	}
	L, k, p := math.Exp(-l), 0, 1.0
	for {
		p *= r.Float64()
		if p <= L {
			return k
		}
		k++
	}
}

// planActivity draws the forum counts of every person and solves the rates.
func (g *generator) planActivity(ctx context.Context) error {
	n := len(g.persons)
	t := activityFor(n)
	pl := &activityPlan{t: t, albums: make([]uint16, n), groups: make([]uint16, n)}
	var W float64
	for s := range n {
		W += g.rate(uint32(s))
	}
	extra := max(0, t.forums-float64(n))
	A, G := albumShare*extra, (1-albumShare)*extra
	chunks := (n + personChunk - 1) / personChunk
	err := g.parallel(ctx, chunks, func(r *rng, _ *[]int32, c int) {
		for s := c * personChunk; s < min(n, (c+1)*personChunk); s++ {
			r.reset(g.seed, streamPlan, uint64(s))
			w := g.rate(uint32(s))
			pl.albums[s] = uint16(min(math.MaxUint16/2, stochRound(r, A*w/W)))
			pl.groups[s] = uint16(min(math.MaxUint16/2, stochRound(r, G*w/W)))
		}
	})
	if err != nil {
		return err
	}
	var WA, WG, SA float64
	for s := range n {
		w := g.weight(uint32(s))
		WA += float64(pl.albums[s]) * w
		WG += float64(pl.groups[s]) * w
		SA += float64(pl.albums[s]) * float64(g.graph.deg[s])
	}
	div := func(a, b float64) float64 {
		if b <= 0 {
			return 0
		}
		return a / b
	}
	photos, wall := photoShare*t.posts, wallPostShare*t.posts
	pl.wallPosts = div(wall, W)
	pl.photos = div(photos, WA)
	pl.groupPosts = div(t.posts-photos-wall, WG)
	friendships := 2 * float64(g.graph.edges())
	rest := max(0, t.members-friendships)
	pl.albumMemberP = min(maxAlbumMember, div(0.5*rest, SA))
	pl.groupMembers = div(rest-pl.albumMemberP*SA, WG)
	text := t.posts - photos
	pl.commentsPerPost = div(t.comments, text)
	threads := text * (1 - math.Exp(-pl.commentsPerPost))
	pl.replyPostP = math.Max(0, math.Min(1, div(t.replyPosts-threads, t.comments-threads)))
	pl.likesPerPost = div(t.likesPost, t.posts)
	pl.likesPerComment = div(t.likesComment, t.comments)
	// Tag draws lose a few percent to duplicates and to owners with
	// few interests; the factors are measured on this generator.
	pl.forumTags = 1.035 * div(t.forumTags, t.forums)
	pl.postTags = div(t.postTags, t.posts)
	pl.commentTags = 1.035 * div(t.commentTags, t.comments)
	share := math.Min(1, div(paramMessages, t.posts+t.comments))
	pl.sample = uint64(share * float64(math.MaxUint64))
	if share >= 1 {
		pl.sample = math.MaxUint64
	}
	g.act = pl
	return nil
}
