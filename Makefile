# tdmaps — the two commands:
#   make figures   rerun the experiments where a GPU is present, then redraw every figure
#   make verify    build and run the tests (the CPU oracle; GPU tests too where a GPU is present)
# Both install what is missing on first use (.ci/deps.sh; Debian 12, as root).
BUILD   ?= build
MESONFLAGS ?=
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
MESON    = $(shell cat .tools/meson 2>/dev/null || echo meson)

.PHONY: all deps configure build verify verify-gpu verify-full exact-table figures experiments clean install

all: build

deps:
	@bash .ci/deps.sh

configure: deps
	@if [ -f $(BUILD)/build.ninja ]; then \
	  $(MESON) setup --reconfigure $(BUILD) $(MESONFLAGS) >/dev/null; \
	else \
	  $(MESON) setup $(BUILD) $(MESONFLAGS); \
	fi

build: configure
	$(MESON) compile -C $(BUILD) -j $(JOBS)

# The CPU oracle and the CLI tests; GPU tests run too and skip themselves without a GPU.
verify: build
	$(MESON) test -C $(BUILD) --no-suite slow --num-processes $(JOBS) --print-errorlogs

verify-gpu: build
	$(MESON) test -C $(BUILD) --suite gpu --num-processes 1 --print-errorlogs

# Everything, including the slow full searches behind the exactness table.
verify-full: build
	$(MESON) test -C $(BUILD) --num-processes $(JOBS) --print-errorlogs

# Regenerates the CPU oracle's exactness-range table (a few minutes).
exact-table: build
	$(BUILD)/verify/exact_table verify/results/exact_ranges_cpu.csv

# Installs the map headers, the tdmap CLI, tdmaps.pc and the CMake package tdmaps under
# PREFIX (README "Using a map in your own kernel"); DESTDIR=... stages it below a directory.
# Sets the prefix of $(BUILD) and builds only what is installed.
PREFIX  ?= /usr/local
install: configure
	$(MESON) configure $(BUILD) -Dprefix=$(abspath $(PREFIX))
	$(MESON) compile -C $(BUILD) -j $(JOBS) tdmap
	$(MESON) install -C $(BUILD) --no-rebuild $(if $(DESTDIR),--destdir $(abspath $(DESTDIR)))

figures: build
	@bash experiments/run_figures.sh $(BUILD)

clean:
	rm -rf $(BUILD)

# Regenerates the static SASS instruction table of the maps' dummy kernels (needs cuobjdump:
# on PATH, in $CUDA_HOME/bin or named by CUOBJDUMP=...; no GPU).
.PHONY: sass-table
sass-table: build
	bash experiments/maps2d/sass_cost.sh $(BUILD)/experiments/maps2d/bench_maps \
	  $(BUILD)/experiments/maps3d/bench_maps3d experiments/results/cpu/map_instructions.csv
