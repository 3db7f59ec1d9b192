#ifndef MOA_FUZZ_DRIVER_H
#define MOA_FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver, run on MoaFuzz's LLVMFuzzerTestOneInput.
int MoaFuzz_main(int argc, char **argv);

#endif
