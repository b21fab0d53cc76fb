# The Makefile is the contract: CI runs `make test`, a new user runs `make run`.
GO      ?= go
DEMO    ?= var/demo
FIXTURE ?= 127.0.0.1:8079
TODAY   := $(shell date -u +%F)
FUZZTIME ?= 30s

.PHONY: run demo test test-race test-alloc bench bench-1m fuzz lint build clean

## run: serve the API on :8080 (GIGS_ADDR changes it) from the demo corpus, read through the
## full loader from a fixture server that plays its hundreds of hosts on $(FIXTURE)
run: demo build
	bin/gigsctl fixture -dir $(DEMO) -listen $(FIXTURE) -- bin/gigsd -sources $(DEMO)/sources.json

## demo: (re)generate the demo corpus when it is missing or not from today
demo:
	@if [ "$$(cat $(DEMO)/GENERATED 2>/dev/null)" != "$(TODAY)" ]; then \
		$(GO) run ./cmd/gigsctl demo -out $(DEMO) -today $(TODAY); \
	fi

## test: the allocation gates without -race, then vet and every test with -race
test: test-alloc test-race

test-race:
	$(GO) vet ./...
	$(GO) test -race -shuffle=on -timeout 15m ./...

# sync.Pool drops items on purpose under -race, so allocation gates run in a plain pass.
test-alloc:
	$(GO) test -run 'Allocations' -count=1 ./...

## bench: engine benchmarks at 10k gigs (bench-1m adds 1M: a few minutes, several GB)
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./engine/ ./server/

bench-1m:
	GIGS_BENCH_1M=1 $(GO) test -run '^$$' -bench . -benchmem -count 3 -timeout 60m ./engine/

## fuzz: run every fuzz target for FUZZTIME each
fuzz:
	@$(GO) list -f '{{.ImportPath}} {{.Dir}}' ./... | while read pkg dir; do \
		for f in $$(grep -ho '^func Fuzz[A-Za-z0-9_]*' $$dir/*_test.go 2>/dev/null | cut -c6-); do \
			echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
		done; \
	done

## lint: formatting and vet
lint:
	@test -z "$$(gofmt -l .)" || (gofmt -l . && echo "gofmt: files above need formatting" && exit 1)
	$(GO) vet ./...
	$(GO) mod tidy -diff

## build: gigsd and gigsctl into bin/
build:
	$(GO) build -o bin/ ./cmd/...

clean:
	rm -rf bin var
