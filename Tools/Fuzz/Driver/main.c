// wayfinder-fuzz's entry. In an ordinary build, a C main hands over to the Swift replayer in FuzzHarnesses
// (FuzzDriver.swift). In the fuzzing build (-DFUZZING, linked with -sanitize=fuzzer) libFuzzer brings its own main,
// which calls LLVMFuzzerInitialize and LLVMFuzzerTestOneInput, both defined in FuzzDriver.swift.
#ifndef FUZZING
int wayfinder_fuzz_main(int argc, char **argv);

int main(int argc, char **argv) { return wayfinder_fuzz_main(argc, argv); }
#endif
