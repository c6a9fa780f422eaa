# Duet's everyday commands. `make help` lists them.
GO      ?= go
BIN     := bin
ADDR    ?= 127.0.0.1:8080
DIALECT ?= telegram
FUZZTIME ?= 8s

.PHONY: help demo serve build lambdas build-TelegramFunction build-AnnexFunction build-SweeperFunction test test-unit lint sim bench loadtest annex-loadtest coldstart fuzz ci clean clariq-fit rate-fit eval-report

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-10s %s\n", $$1, $$2}'

demo: build ## run `duet serve` locally and play `duet sim` against it (no AWS, no network)
	@./.ci/demo $(BIN)/duet $(DIALECT) $(ADDR)

serve: ## run both bots on embedded defaults (http://127.0.0.1:8080)
	$(GO) run ./cmd/duet serve -addr $(ADDR)

# `sam build` (the template's BuildMethod: makefile) runs build-<LogicalId>
# with ARTIFACTS_DIR set: one static, stripped bootstrap per function.
# lambda.norpc drops aws-lambda-go's net/rpc mode, which only the retired
# go1.x runtime used.
LAMBDA_ARCH  ?= arm64
LAMBDA_FLAGS := -tags lambda.norpc -trimpath -ldflags='-s -w'
ARTIFACTS_DIR ?= $(BIN)/lambda/$(@:build-%=%)
lambda = GOOS=linux GOARCH=$(LAMBDA_ARCH) CGO_ENABLED=0 $(GO) build $(LAMBDA_FLAGS) -o $(ARTIFACTS_DIR)/bootstrap ./functions/$(1)

build-TelegramFunction: ; $(call lambda,telegram)
build-AnnexFunction: ; $(call lambda,annex)
build-SweeperFunction: ; $(call lambda,sweeper)

lambdas: build-TelegramFunction build-AnnexFunction build-SweeperFunction ## build the three functions' bootstraps as sam build does (bin/lambda/<Function>/bootstrap)

build: ## build the CLI into bin/duet
	$(GO) build -buildvcs=auto -o $(BIN)/duet ./cmd/duet

test: ## every test: the whole suite on a local moto_server (DynamoDB and SSM), then the DynamoDB suites again on dynalite
	@set -e; \
	if [ -z "$${DYNAMODB_ENDPOINT:-}" ] || [ -z "$${AWS_ENDPOINT_URL_SSM:-}" ]; then \
		eval "$$(./.ci/moto)"; trap 'kill $$MOTO_PID 2>/dev/null' EXIT; \
	fi; \
	echo "DynamoDB tests against $$DYNAMODB_ENDPOINT, SSM Parameter Store tests against $$AWS_ENDPOINT_URL_SSM"; \
	$(GO) test -race -count=1 -timeout 30m ./...
	@set -e; \
	pkgs=$$(grep -lE 'dynamotest\.Endpoint\(|Getenv\("DYNAMODB_ENDPOINT"\)' $$(git ls-files -co --exclude-standard '*_test.go') | xargs -n1 dirname | sort -u | sed 's|^|./|'); \
	eval "$$(./.ci/dynalite)"; trap 'kill $$DYNALITE_PID 2>/dev/null' EXIT; \
	echo "DynamoDB tests against $$DYNAMODB_ENDPOINT (dynalite):" $$pkgs; \
	$(GO) test -race -count=1 -timeout 30m $$pkgs

test-unit: ## the tests that need no server (DynamoDB suites skip)
	$(GO) test -race -timeout 30m ./...

# staticcheck, pinned, fetched from the Go module proxy (v0.8 knows go1.26).
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

lint: ## gofmt, go vet, staticcheck, cfn-lint
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	cfn-lint template.yaml

sim: build ## `duet sim` against the in-process bot in all three dialects
	@for d in telegram convai2017 convai2018; do \
		echo "== duet sim -dialect $$d"; $(BIN)/duet sim -dialect $$d -q || exit 1; \
	done

bench: ## the per-message benchmark (compare runs with benchstat)
	$(GO) test -run '^$$' -bench . -benchmem -count 6 ./shared/httpapi/ ./shared/brain/offline/

loadtest: build ## `duet serve` beside a bare Go relay under the same wrk load (needs wrk): requests/s, p50, p99
	@./.ci/loadtest $(BIN)/duet

annex-loadtest: build ## `duet serve`'s POST /annex under wrk with generated personas of 42, 3,000 and 30,000 messages (needs wrk): requests/s, p50, p99, start, memory
	@./.ci/annex-loadtest $(BIN)/duet

coldstart: ## each function's INIT against a hello-world Go Lambda, its bootstrap's size, a warm message's duration (no Docker; RUNS, WARM)
	@./.ci/coldstart/run

fuzz: ## every fuzz target for FUZZTIME each (`make test` runs their seeds)
	@set -e; log=$$(mktemp); trap 'rm -f $$log' EXIT; \
	for f in $$(grep -l '^func Fuzz' $$(git ls-files -co --exclude-standard '*_test.go') | sort); do \
		for t in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' $$f); do \
			echo "== $$t ./$$(dirname $$f)"; \
			if $(GO) test -run '^$$' -fuzz "^$$t\$$" -fuzztime $(FUZZTIME) ./$$(dirname $$f) >$$log 2>&1; then tail -1 $$log; \
			elif grep -q 'context deadline exceeded' $$log && ! grep -q 'Failing input written\|failure while testing seed' $$log; then \
				echo "   stopped by go1.26's fuzztime race (golang/go#75804), no failing input: ignored"; \
			else cat $$log; exit 1; fi; \
		done; \
	done

eval-report: build ## `duet eval` of the sample persona beside echo: bin/eval-report.html, .json and, with Chromium, a screenshot .png
	@./.ci/eval-report $(BIN)/duet $(BIN)

CONVAI2_DATA ?= ../shared/data/convai2

rate-fit: ## refit the offline evaluator (shared/brain/offline/judge_model.json) from the ConvAI2 exports in CONVAI2_DATA, and print the dev figures
	$(GO) run ./cmd/duet rate fit -data $(CONVAI2_DATA) -out shared/brain/offline/judge_model.json

CLARIQ_DATA ?= ../shared/data/clariq

clariq-fit: ## refit shared/clariq/model.json from the ClariQ data (CLARIQ_DATA=dir with train.tsv, dev.tsv, question_bank.tsv)
	$(GO) run ./cmd/duet clariq fit -bank $(CLARIQ_DATA)/question_bank.tsv -train $(CLARIQ_DATA)/train.tsv -dev $(CLARIQ_DATA)/dev.tsv -out shared/clariq/model.json

ci: lint test fuzz sim ## what .ci/run runs

clean: ## remove build output
	rm -rf $(BIN) .aws-sam
