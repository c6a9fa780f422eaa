package offline

import (
	"strings"

	"github.com/duetbot/duet/shared/embed"
)

// set is a set of strings.
type set map[string]struct{}

func newSet(words string) set {
	s := set{}
	for _, w := range strings.Fields(words) {
		s[w] = struct{}{}
	}
	return s
}

func (s set) has(w string) bool {
	_, ok := s[w]
	return ok
}

func (s set) add(w string) { s[w] = struct{}{} }

// withStopwords adds embed's stopwords to s.
func withStopwords(s set) set {
	for _, w := range embed.Stopwords() {
		s.add(w)
	}
	return s
}

// stopwords are function words (embed.Stopwords, the list Duet's text code
// shares), and more of them, chat fillers and light verbs: words that say
// nothing about the topic, so a message made only of them is vague.
var stopwords = withStopwords(newSet(`
above across after afterwards again against ago almost alone along already
although always among another anybody anyhow anyone anything anyway anyways
anywhere aren't around away back became because become becomes before beforehand
behind below beside besides between beyond both cannot couldn't done during each
either else elsewhere enough etc even ever every everybody everyone everything
everywhere except few former formerly further hadn't hasn't haven't he'd he'll
he's hence her here's hereby herein hers herself him himself his how's however
i'd i'll i've ie indeed instead it'd it'll itself least less let like likely lot
lots many maybe meanwhile mine moreover mostly much mustn't myself namely
neither never nevertheless next nobody none noone nor nothing now nowhere often
once one ones onto other others otherwise ought ours ourselves per perhaps
please quite rather really shan't she'd she'll she's shouldn't since somebody
somehow someone something sometime sometimes somewhat somewhere soon still
that'd that'll theirs themselves thence there'd there'll there're there's
thereafter thereby therefore they'd they'll they're they've though through
throughout thru thus till together toward towards under unless until upon us via
wasn't we'd we'll we've well weren't what'd what'll what's whatever when's
whence whenever where's whereas wherever whether while whither who'd who'll
who's whoever whole why's within without wouldn't yet you'd you'll you've yours
yourself yourselves

yeah yea yep yup yah ya nope nah naw hmm hmmm hm mm mmm uh uhh um umm er erm ah
ahh aha ooh oops wow lol lmao lmfao rofl haha hahaha hehe heh idk idc dunno
gonna wanna gotta kinda sorta okey okie k kk sure fine cool alright right u ur urself
im dont cant wont didnt doesnt isnt wasnt arent thats whats ive id youre theyre
jk btw omg pls plz thx ty thanks thank hello hiya bye goodbye cya yo wbu hbu ikr
tbh imo imho smh fr nvm whatever depends depend depending dude bro man guys

gets getting gotten go goes going gone went make makes made making take takes
took taken taking say says said saying tell tells told telling think thinks
thought thinking know knows knew known knowing mean means meant want wants
wanted see sees saw seen seem seems seemed look looks looked come comes came
give gives gave given put puts try tries tried guess suppose stuff thing things
kind sort bit way ways gotcha agree agreed true
`))

// generic words carry some content but are too common to be a topic, and
// overlaps on them say little about relevance.
var generic = newSet(`
good bad great nice big small little new old long short high low best better
worse worst first last time times day days year years week people person guy
guys place part point idea situation case fact reason question answer life
work world home probably actually definitely totally honestly basically
literally seriously exactly absolutely certainly usually simply pretty real
wrong easy hard sense happen happens happened matter matters deal handle sure
lot kind sort question questions yes feel feels felt need needs needed keep
find found use used call called ask asked work able okay fun funny weird
strange interesting different same whole important favourite favorite
something anything everything nothing someone anyone everyone somebody
discover discovered suddenly imagine situation scenario choose decide do
`)

// determiners mark the next word as a noun (or an adjective before one).
var determiners = newSet(`a an the my your his her its our their this that
these those some any every each no another`)

// pronounYou are the words by which a partner addresses the bot.
var pronounYou = newSet(`you your yours yourself you're you'd you'll you've u ur ya wbu hbu`)

// whWords open a question on their own.
var whWords = newSet(`what which who whom whose why how when where what's
where's who's how's why's when's wbu hbu whereabouts where'd`)

// auxWords open a yes/no question when a subject follows.
var auxWords = newSet(`do does did is are was were can could would will should
shall may might have has had am isn't aren't don't doesn't didn't can't won't
wouldn't couldn't shouldn't`)

// subjects follow an auxiliary in a yes/no question.
var subjects = newSet(`you i we they he she it there u ya anyone anybody someone
somebody people this that your my the a his her their these those`)

// whStatement words after "when"/"where"/"what" make the clause a statement
// ("when I saw it", "what a mess") rather than a question.
var whStatement = newSet(`a an i i'd i'm i'll i've we he she they it`)

// gibberishAllowed are real interjections that the gibberish detector would
// otherwise reject.
var gibberishAllowed = newSet(`hmm hmmm shh shhh brr brrr psst pst tsk pfft grr
grrr nth mmm mm zzz phd bff lmfao`)

// impossibleBigrams are letter pairs that (almost) never occur inside English
// words; one of them marks a keyboard mash.
var impossibleBigrams = func() (t [26][26]bool) {
	for _, bg := range strings.Fields(`bq bx cj cv cx dx fq fx fz gq gx hx jb jc
jd jf jg jh jk jl jm jn jp jq jr js jt jv jw jx jy jz kj kq kx kz lx mx pq px
qb qc qd qe qf qg qh qj qk ql qm qn qo qp qq qr qs qt qv qw qx qy qz sx tq tx
vb vc vd vf vg vh vj vk vm vn vp vq vt vw vx vz wq wv wx xj xk xq xz yq zj zq
zx`) {
		t[bg[0]-'a'][bg[1]-'a'] = true
	}
	return t
}()

// keyboardRows are the letter rows of a QWERTY keyboard.
var keyboardRows = []string{"qwertyuiop", "asdfghjkl", "zxcvbnm"}

// keyboardRuns find mashes such as "asdf" or "poiu": four neighbouring keys
// in a row, either direction.
var keyboardRuns = func() set {
	s := set{}
	for _, row := range keyboardRows {
		for i := 0; i+4 <= len(row); i++ {
			run := row[i : i+4]
			s.add(run)
			s.add(reverse(run))
		}
	}
	// Real words contain these: liberty, strewn.
	delete(s, "erty")
	delete(s, "trew")
	return s
}()

func reverse(s string) string {
	b := []byte(s)
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}

// wordClass says which of the word lists above a word is in.
type wordClass uint8

const (
	inStopwords wordClass = 1 << iota
	inGeneric
	inPronounYou
	inGibberishAllowed
)

// lexicon maps each word of stopwords, generic, pronounYou and
// gibberishAllowed to the lists it is in, so that analysing a word costs
// one map lookup rather than one per list.
var lexicon = func() map[string]wordClass {
	m := map[string]wordClass{}
	for _, l := range []struct {
		words set
		class wordClass
	}{{stopwords, inStopwords}, {generic, inGeneric}, {pronounYou, inPronounYou}, {gibberishAllowed, inGibberishAllowed}} {
		for w := range l.words {
			m[w] |= l.class
		}
	}
	return m
}()
