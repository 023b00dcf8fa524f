# The one way to run things. `run` and `test` install first; `install` is quick when nothing changed.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# Tools from the npm registry (package.json, pinned in package-lock.json): buf for the contracts; @hey-api/openapi-ts
# and TypeScript for the TypeScript client.
TOOLS  := node_modules/.installed
BUF    := node_modules/.bin/buf
TSC    := node_modules/.bin/tsc
PYTEST_WORKERS ?= 2

# The browser tests (tests/web) drive Debian's Chromium; they skip without it, except under CI=true.
CHROMIUM := /usr/bin/chromium
# The alert tests (tests/deploy/test_observability.py) run Debian's promtool; they skip without it, except under CI=true.
PROMTOOL := /usr/bin/promtool

.PHONY: install run test docs docs-serve lint format bench bench-ladder clean stubs check-stubs check-contracts release-contracts release-openapi browser promtool \
	system-packages dashboards

install: $(STAMP)

$(STAMP): pyproject.toml Makefile
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,docs]'
	@touch $(STAMP)

$(TOOLS): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@touch $(TOOLS)

# Options for `kickoff serve` (`kickoff serve --help`), e.g. make run SERVE_ARGS="--cors-origin https://play.example.com".
run: install
	$(BIN)/kickoff serve $(SERVE_ARGS)

# Debian's Chromium for the browser tests (as root; Playwright's own browser downloads are not used).
browser:
	@test -x $(CHROMIUM) || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; }
	@$(CHROMIUM) --version

# Debian's prometheus package for promtool (as root; without its recommends). Where systemd runs, installing it also
# starts a Prometheus on :9090: stop it with `systemctl disable --now prometheus` if you do not want one.
promtool:
	@test -x $(PROMTOOL) || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends prometheus; }
	@$(PROMTOOL) --version | head -1

# Every system package the tests need (CI runs this before `make test`).
system-packages: browser promtool

# The Grafana dashboards in deploy/grafana/dashboards/ are generated; `make test` fails while they are stale.
dashboards: install
	$(BIN)/python deploy/grafana/dashboards.py

# The store suites run on SQLite and on a throwaway PostgreSQL 15 that scripts/with-postgres starts and removes.
# --durations: the slowest tests and fixtures are listed at the end, so a test that grows slow is seen.
test: install check-stubs check-contracts
	scripts/with-postgres $(BIN)/python -m pytest -n $(PYTEST_WORKERS) --durations=25 $(PYTEST_ARGS)

# The documentation site (mkdocs.yml, pages in docs/): built with --strict into site/, so a broken link, an anchor that
# names no heading, a page missing from the nav or a quoted file that is gone fails it. `make test` builds it too.
docs: install
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

docs-serve: install
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve --strict --dev-addr 127.0.0.1:8000

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: install
	$(BIN)/kickoff bench engine --game soker --games 20000
	$(BIN)/kickoff bench bots --game soker --games 1000
	$(BIN)/kickoff bench engine --game age-of-soccer --games 2000 --baseline soker
	$(BIN)/kickoff bench bots --game age-of-soccer --games 1000
	$(BIN)/kickoff bench engine --game carta-futbol-club --games 2000 --baseline soker
	$(BIN)/kickoff bench bots --game carta-futbol-club --games 1000 --seats 2,4
	$(BIN)/kickoff bench bots --game soker --bot hard --opponent normal --seats 2,4 --deals 150 --think 1
	$(BIN)/kickoff bench bots --game soker --bot hard --opponent random --seats 2 --deals 25 --think 1
	$(BIN)/kickoff bench bots --game age-of-soccer --bot hard --opponent normal --seats 2,4 --deals 100 --think 1
	$(BIN)/kickoff bench bots --game carta-futbol-club --bot hard --opponent normal --seats 2,4 --deals 100 --think 1
	$(BIN)/kickoff bench goals --rooms 200 --seconds 15 --rounds 3 --tracing-rounds 7 --readme docs/benchmarks.md
	scripts/with-postgres sh -c '$(BIN)/kickoff bench server --rooms 200 --seconds 20 --transport stream --bots 0 \
		--database-url "$$KICKOFF_TEST_POSTGRES_URL"'
	scripts/with-postgres sh -c '$(BIN)/kickoff bench nemesis --seconds 120 --database-url "$$KICKOFF_TEST_POSTGRES_URL"'
	scripts/with-postgres sh -c '$(BIN)/kickoff bench cluster --nodes 1,2,3 --rooms 200 --seconds 15 --rounds 3 \
		--database-url "$$KICKOFF_TEST_POSTGRES_URL" && $(BIN)/kickoff bench cluster --nodes 1,2,3 --rooms 200 \
		--seconds 15 --rounds 3 --local --database-url "$$KICKOFF_TEST_POSTGRES_URL" && $(BIN)/kickoff bench cluster \
		--nodes 1,2,3 --rooms 200 --seconds 15 --rounds 3 --follow --database-url "$$KICKOFF_TEST_POSTGRES_URL" && \
		$(BIN)/kickoff bench cluster --nodes 1,2,3 --rooms 200 --seconds 15 --rounds 3 --transport rest \
		--database-url "$$KICKOFF_TEST_POSTGRES_URL"'
	$(BIN)/kickoff bench clocks --rooms 5000
	scripts/with-postgres sh -c '$(BIN)/kickoff bench social --players 10000 --friends 50 --seconds 180 \
		--database-url "$$KICKOFF_TEST_POSTGRES_URL"'
	$(BIN)/kickoff bench history --games 2000 --stored 1000,10000
	@# (both stores run, then the goals missed on either fail the target)
	$(BIN)/kickoff bench players --players 100000 --readme docs/benchmarks.md; sqlite=$$?; \
	scripts/with-postgres sh -c '$(BIN)/kickoff bench players --players 100000 --rounds 0 --readme docs/benchmarks.md \
		--database-url "$$KICKOFF_TEST_POSTGRES_URL"'; postgres=$$?; [ $$sqlite = 0 ] && [ $$postgres = 0 ]
	@# (matchmaking at 30 tickets/s, what 2 cores sustain: each store's run takes some 6 minutes; both stores run,
	@# then a ticket that never ended on either fails the target)
	$(BIN)/kickoff bench match --players 10000 --rate 30; sqlite=$$?; \
	scripts/with-postgres sh -c '$(BIN)/kickoff bench match --players 10000 --rate 30 \
		--database-url "$$KICKOFF_TEST_POSTGRES_URL"'; postgres=$$?; [ $$sqlite = 0 ] && [ $$postgres = 0 ]
	@# (webhooks: deliveries a second, CPU a move with and without a delivery, 10,000 idle correspondence rooms)
	$(BIN)/kickoff bench webhooks --idle 10000; sqlite=$$?; \
	scripts/with-postgres sh -c '$(BIN)/kickoff bench webhooks --idle 0 \
		--database-url "$$KICKOFF_TEST_POSTGRES_URL"'; postgres=$$?; [ $$sqlite = 0 ] && [ $$postgres = 0 ]
	@# (chat: 200 rooms playing while each room's people send a message a second, against the same rooms without
	@# chat, in alternating rounds; both stores run, then a goal missed on either fails the target)
	$(BIN)/kickoff bench chat --rooms 200 --seconds 15 --rounds 3; sqlite=$$?; \
	scripts/with-postgres sh -c '$(BIN)/kickoff bench chat --rooms 200 --seconds 15 --rounds 3 \
		--database-url "$$KICKOFF_TEST_POSTGRES_URL"'; postgres=$$?; [ $$sqlite = 0 ] && [ $$postgres = 0 ]

# The levels against each other on duplicate deals, each game's table written into docs/benchmarks.md. Resumable: each
# game goes to var/bench/ as it ends, and the same command started again plays only the games not there yet.
bench-ladder: install
	mkdir -p var/bench
	for game in soker age-of-soccer carta-futbol-club; do \
		$(BIN)/kickoff bench ladder --game $$game --seats 2,4 --deals 20 --think 1 --workers 2 \
			--out var/bench/ladder-$$game.jsonl --readme docs/benchmarks.md || exit 1; \
	done

# The gRPC stubs in clients/ are generated from proto/ and checked in; never edit them by hand. So is the TypeScript
# client in clients/typescript/src, from the gateway's OpenAPI document (clients/typescript/openapi-ts.config.ts).
stubs: install $(TOOLS)
	PYTHON=$(BIN)/python scripts/generate-stubs clients
	PYTHON=$(BIN)/python scripts/generate-typescript-client clients/typescript/src

# Both made again into a scratch folder and compared; then tsc --strict type-checks the TypeScript client and the web
# example that uses it (examples/web).
check-stubs: install $(TOOLS)
	@tmp=$$(mktemp -d); PYTHON=$(BIN)/python scripts/generate-stubs $$tmp; \
	if diff -r clients/kickoff $$tmp/kickoff >/dev/null; then rm -rf $$tmp; echo "clients/ matches proto/"; \
	else diff -r -q clients/kickoff $$tmp/kickoff; rm -rf $$tmp; echo "clients/ is stale: run 'make stubs'"; exit 1; fi
	@tmp=$$(mktemp -d); PYTHON=$(BIN)/python scripts/generate-typescript-client $$tmp/src; \
	if diff -r clients/typescript/src $$tmp/src >/dev/null; then rm -rf $$tmp; \
	echo "clients/typescript matches the OpenAPI document"; else diff -r -q clients/typescript/src $$tmp/src; \
	rm -rf $$tmp; echo "clients/typescript is stale: run 'make stubs'"; exit 1; fi
	$(TSC) -p clients/typescript --strict --noEmit
	$(TSC) -p examples/web --strict --noEmit

# proto/ compiles on its own (google/rpc/status.proto and google/api/*.proto are vendored), passes buf's STANDARD lint rules, and breaks
# nothing of the last release's contract (release/kickoff-v1.binpb, made by `make release-contracts`).
check-contracts: $(TOOLS)
	$(BUF) lint
	$(BUF) breaking --against release/kickoff-v1.binpb
	$(BUF) format --diff --exit-code proto
	@echo "proto/ lints clean, is formatted as buf formats it, and keeps the last release's contract"

release-contracts: $(TOOLS)
	$(BUF) build --exclude-source-info -o release/kickoff-v1.binpb

# The REST surface of the last release: the gateway's OpenAPI document, which tests/gateway/test_released_rest.py keeps
# served as it is (paths, methods, parameters, bodies, statuses). Run at a release, beside `make release-contracts`.
release-openapi: install
	$(BIN)/python -m service.gateway.release release/kickoff-v1.openapi.json

clean:
	rm -rf $(VENV) node_modules build site *.egg-info .pytest_cache .ruff_cache
