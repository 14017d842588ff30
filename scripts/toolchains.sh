# Sourced by the scripts that need a nightly toolchain or `rate`: the versions are pinned here,
# in one place, so that a run next year builds and checks with what today's run used.
#   nightly: -Zbuild-std for ARMv6 (test-cross.sh, count-insns.sh) and AVR (test-embedded.sh),
#            Miri and the sanitizer build of the fuzz targets (test-trust.sh); 2026-10-30
#            because the AVR firmware's assembly does not build with 2026-05-20;
#   rate:    the DRAT proof checker (test-trust.sh).
# NIGHTLY=nightly-YYYY-MM-DD (or `nightly`) overrides the toolchain for one run.

SLICEWISE_NIGHTLY=${NIGHTLY:-nightly-2026-10-30}
SLICEWISE_RATE_VERSION=0.3.0

# install_nightly [COMPONENT...]: the pinned nightly (minimal profile) with these components.
install_nightly() {
    rustup toolchain list | grep -q "^$SLICEWISE_NIGHTLY" ||
        rustup toolchain install "$SLICEWISE_NIGHTLY" --profile minimal >/dev/null
    [ $# -eq 0 ] || rustup component add "$@" --toolchain "$SLICEWISE_NIGHTLY" >/dev/null
}

# install_rate: `rate` at the pinned version, from crates.io with its own lock file.
install_rate() {
    cargo install --list | grep -qx "rate v$SLICEWISE_RATE_VERSION:" ||
        cargo install --locked --version "$SLICEWISE_RATE_VERSION" rate
}
