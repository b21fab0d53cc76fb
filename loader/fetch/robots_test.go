package fetch

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// RFC 9309 §2.2.2: how paths are compared.
func TestNormalizeRobotsPath(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/foo/bar?baz=quz", "/foo/bar?baz=quz"},
		{"/foo/bar?baz=https%3A%2F%2Ffoo.bar", "/foo/bar?baz=https%3A%2F%2Ffoo.bar"},
		{"/foo/bar/\u30c4", "/foo/bar/%E3%83%84"},
		{"/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84"},
		{"/foo/bar/%e3%83%84", "/foo/bar/%E3%83%84"},
		{"/foo/bar/%62%61%7A", "/foo/bar/baz"},
		{"/a b", "/a%20b"},
		{"/100%", "/100%"},
		{"/%2f", "/%2F"},
		{"/%7e", "/~"},
	} {
		if got := normalizeRobotsPath(tc.in); got != tc.want {
			t.Errorf("normalizeRobotsPath(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// Matching of single patterns: RFC 9309 §2.2.3 and the examples Google publishes for it.
func TestRobotsMatch(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		yes, no []string
	}{
		{"/", []string{"/", "/anything"}, nil},
		{"/*", []string{"/", "/anything"}, nil},
		{"/$", []string{"/"}, []string{"/page.htm"}},
		{"/fish", []string{"/fish", "/fish.html", "/fish/salmon.html", "/fishheads", "/fishheads/yummy.html", "/fish.php?id=anything"},
			[]string{"/Fish.asp", "/catfish", "/?id=fish", "/desert/fish"}},
		{"/fish*", []string{"/fish", "/fish.html", "/fish/salmon.html", "/fishheads", "/fish.php?id=anything"},
			[]string{"/Fish.asp", "/catfish", "/?id=fish"}},
		{"/fish/", []string{"/fish/", "/fish/?id=anything", "/fish/salmon.htm"},
			[]string{"/fish", "/fish.html", "/animals/fish/", "/Fish/Salmon.asp"}},
		{"/*.php", []string{"/index.php", "/filename.php", "/folder/filename.php", "/folder/filename.php?parameters", "/folder/any.php.file.html", "/filename.php/"},
			[]string{"/", "/windows.PHP"}},
		{"/*.php$", []string{"/filename.php", "/folder/filename.php"},
			[]string{"/filename.php?parameters", "/filename.php/", "/filename.php5", "/windows.PHP"}},
		{"/fish*.php", []string{"/fish.php", "/fishheads/catfish.php?parameters"}, []string{"/Fish.PHP"}},
		{"/this/path/exactly$", []string{"/this/path/exactly"}, []string{"/this/path/exactly/", "/this/path/exactly?q"}},
		{"/this/*/exactly", []string{"/this/a/exactly", "/this/a/b/exactly/more"}, []string{"/this/exactly"}},
		{"*.gif$", []string{"/a.gif", "/b/c.gif"}, []string{"/a.gif?x", "/a.gifs"}},
		{"/a$b", []string{"/a$b", "/a$bc"}, []string{"/ab"}}, // '$' inside is literal
		{"/**a**", []string{"/a", "/xxa"}, []string{"/", "/b"}},
	} {
		for _, p := range tc.yes {
			if !robotsMatch(tc.pattern, p) {
				t.Errorf("%q should match %q", tc.pattern, p)
			}
		}
		for _, p := range tc.no {
			if robotsMatch(tc.pattern, p) {
				t.Errorf("%q should not match %q", tc.pattern, p)
			}
		}
	}
}

// RFC 9309 §5.1 and §5.2, Google's precedence examples, and the grouping rules.
func TestRobotsAllowed(t *testing.T) {
	const rfc51 = `User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot

EOF
`
	type check struct {
		path  string
		allow bool
	}
	for _, tc := range []struct {
		name, body, agent string
		checks            []check
	}{
		{"rfc5.1 other", rfc51, "gigs", []check{
			{"/foo.gif", false}, {"/example/x", false}, {"/publications/a.gif", true}, {"/publications/", true}, {"/x", true}, {"/robots.txt", true}}},
		{"rfc5.1 foobot", rfc51, "foobot", []check{
			{"/x", false}, {"/example/page.html", true}, {"/example/allowed.gif", true}, {"/example/other.gif", false}}},
		{"rfc5.1 barbot", rfc51, "barbot", []check{{"/example/page.html", false}, {"/example/other", true}, {"/foo.gif", true}}},
		{"rfc5.1 bazbot", rfc51, "BazBot", []check{{"/example/page.html", false}}},
		{"rfc5.1 quxbot", rfc51, "quxbot", []check{{"/example/page.html", true}, {"/a.gif", true}}},
		{"rfc5.2 longest match", "User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n", "foobot", []check{
			{"/example/page/", true}, {"/example/page/disallowed.gif", false}}},
		{"longer allow", "user-agent: *\nallow: /p\ndisallow: /\n", "gigs", []check{{"/page", true}, {"/other", false}}},
		{"tie goes to allow", "user-agent: *\nallow: /folder\ndisallow: /folder\n", "gigs", []check{{"/folder/page", true}}},
		{"longer wildcard disallow", "user-agent: *\nallow: /page\ndisallow: /*.htm\n", "gigs", []check{{"/page.htm", false}}},
		{"wildcard tie", "user-agent: *\nallow: /page\ndisallow: /*.ph\n", "gigs", []check{{"/page.php5", true}}},
		{"anchored root", "user-agent: *\nallow: /$\ndisallow: /\n", "gigs", []check{{"/", true}, {"/page.htm", false}}},
		{"percent-encoded rule", "user-agent: *\ndisallow: /%62az\n", "gigs", []check{{"/baz", false}, {"/%62az", false}, {"/bar", true}}},
		{"utf-8 rule", "user-agent: *\ndisallow: /foo/bar/\u30c4\n", "gigs", []check{{"/foo/bar/%E3%83%84", false}, {"/foo/bar/%e3%83%84", false}}},
		{"query", "user-agent: *\ndisallow: /*?session=\n", "gigs", []check{{"/a?session=1", false}, {"/a?x=1", true}}},
		{"our group beats star", "User-agent: *\nDisallow: /\n\nUser-agent: gigs\nDisallow: /private\n", "gigs", []check{{"/public", true}, {"/private/x", false}}},
		{"token case and version", "User-agent: GIGS/1.0\nDisallow: /x\n", "gigs", []check{{"/x", false}}},
		{"longer token is not ours", "User-agent: gigsbot\nDisallow: /\n", "gigs", []check{{"/x", true}}},
		{"our groups combine", "User-agent: gigs\nDisallow: /a\n\nUser-agent: other\nDisallow: /b\n\nUser-agent: gigs\nDisallow: /c\n", "gigs", []check{
			{"/a", false}, {"/b", true}, {"/c", false}}},
		{"star groups combine", "User-agent: *\nDisallow: /a\nUser-agent: *\nDisallow: /c\n", "gigs", []check{{"/a", false}, {"/c", false}, {"/b", true}}},
		{"rules before any group ignored", "Disallow: /\nUser-agent: x\nDisallow: /\n", "gigs", []check{{"/", true}}},
		{"empty disallow allows", "User-agent: *\nDisallow:\n", "gigs", []check{{"/x", true}}},
		{"comments, spaces, crlf, cr, bom", "\xef\xbb\xbfUser-agent : * # all\r\n  Disallow :  /a # no\rAllow: /a/b\r\n", "gigs", []check{
			{"/a", false}, {"/a/b", true}}},
		{"sitemap does not end a group", "User-agent: a\nSitemap: http://x/s.xml\nUser-agent: gigs\nDisallow: /z\n", "gigs", []check{{"/z", false}}},
		{"user-agent after rule starts a group", "User-agent: gigs\nDisallow: /a\nUser-agent: other\nDisallow: /b\n", "gigs", []check{{"/a", false}, {"/b", true}}},
		{"no groups", "# nothing\n", "gigs", []check{{"/", true}}},
		{"garbage", "\x00\xff<html>not robots</html>", "gigs", []check{{"/", true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := parseRobots([]byte(tc.body), tc.agent)
			for _, c := range tc.checks {
				if got := r.allowed(c.path); got != c.allow {
					t.Errorf("allowed(%q) = %v, want %v", c.path, got, c.allow)
				}
			}
		})
	}
}

func TestRobotsCrawlDelay(t *testing.T) {
	for _, tc := range []struct {
		body string
		want time.Duration
	}{
		{"User-agent: *\nCrawl-delay: 2\n", 2 * time.Second},
		{"User-agent: *\nCrawl-delay: 0.5\n", 500 * time.Millisecond},
		{"User-agent: gigs\nCrawl-delay: 3\nUser-agent: *\nCrawl-delay: 9\n", 3 * time.Second},
		{"User-agent: other\nCrawl-delay: 3\n", 0},
		{"User-agent: *\nCrawl-delay: soon\n", 0},
		{"User-agent: *\nCrawl-delay: -4\n", 0},
		{"User-agent: *\nCrawl-delay: NaN\n", 0},
		{"User-agent: *\nCrawl-delay: 1e300\n", 1e6 * time.Second},
	} {
		if got := parseRobots([]byte(tc.body), "gigs").crawlDelay; got != tc.want {
			t.Errorf("%q: crawl delay %v, want %v", tc.body, got, tc.want)
		}
	}
}

func TestRobotsPath(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"http://a.example", "/"},
		{"http://a.example/x/y?q=1&r=%2F", "/x/y?q=1&r=%2F"},
		{"http://a.example/a%20b", "/a%20b"},
		{"http://a.example/caf%C3%A9", "/caf%C3%A9"},
		{"http://a.example/p?", "/p?"},
	} {
		u, err := url.Parse(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := robotsPath(u); got != tc.want {
			t.Errorf("robotsPath(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestRobotsAllowedAllocations(t *testing.T) {
	r := parseRobots([]byte("User-agent: *\nDisallow: /*.gif$\nDisallow: /private/\nAllow: /private/ok\n"), "gigs")
	if n := testing.AllocsPerRun(100, func() { r.allowed("/private/ok/page?x=1") }); n != 0 {
		t.Errorf("allowed allocates %v times for a clean path", n)
	}
}

func BenchmarkRobotsAllowed(b *testing.B) {
	var body strings.Builder
	body.WriteString("User-agent: *\n")
	for i := range 200 {
		fmt.Fprintf(&body, "Disallow: /section%d/*/print$\nAllow: /section%d/public\n", i, i)
	}
	r := parseRobots([]byte(body.String()), "gigs")
	b.ReportAllocs()
	for b.Loop() {
		r.allowed("/section150/2026/03/some-long-event-page-name?utm_source=x")
	}
}

// refMatch is robotsMatch written the obvious way, for the fuzzer to compare against.
func refMatch(pattern, path string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	if anchored {
		pattern = pattern[:len(pattern)-1]
	}
	parts := strings.Split(pattern, "*")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	expr := "(?s)^" + strings.Join(parts, ".*")
	if anchored {
		expr += "$"
	}
	return regexp.MustCompile(expr).MatchString(path)
}

func FuzzRobots(f *testing.F) {
	f.Add([]byte("User-agent: *\nDisallow: *.gif$\nDisallow: /example/\nAllow: /publications/\n"), "/example/a.gif")
	f.Add([]byte("User-agent: gigs\nDisallow: /\nAllow: /$\nCrawl-delay: 1.5\n"), "/")
	f.Add([]byte("user-agent: *\ndisallow: /fish*.php\n"), "/fishheads/catfish.php?parameters")
	f.Add([]byte("\xef\xbb\xbfUser-agent: GIGS\r\nDisallow: /%E3%83%84\r\n"), "/\u30c4")
	f.Add([]byte("User-agent: *\nDisallow: /**a*b*c$\n"), "/aaaaaaaaaaaaaabbbbbbbbbbbbbbbbbbbbc")
	f.Fuzz(func(t *testing.T, body []byte, path string) {
		r := parseRobots(body, "gigs")
		if !r.allowed("/robots.txt") {
			t.Fatal("/robots.txt disallowed")
		}
		if r.crawlDelay < 0 {
			t.Fatalf("negative crawl delay %v", r.crawlDelay)
		}
		got := r.allowed(path)
		p := normalizeRobotsPath(path)
		for i, rule := range r.rules {
			if i == 20 || len(rule.pattern) > 200 || len(p) > 200 {
				break
			}
			if robotsMatch(rule.pattern, p) != refMatch(rule.pattern, p) {
				t.Fatalf("robotsMatch(%q, %q) = %v, reference says otherwise", rule.pattern, p, !refMatch(rule.pattern, p))
			}
		}
		if len(r.rules) == 0 && !got {
			t.Fatal("disallowed without rules")
		}
	})
}
