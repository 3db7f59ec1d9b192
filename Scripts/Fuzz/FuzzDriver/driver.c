// The entry point of MoaFuzz. SwiftPM links an executable with its `main` renamed to `<Module>_main`
// (so that tests can link it); MoaFuzz has no `main` of its own (it is parsed as a library), so this
// one hands the command line to libFuzzer's driver, with the target defined in MoaFuzz.swift.
#include "FuzzDriver.h"

extern int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

int MoaFuzz_main(int argc, char **argv) {
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}
