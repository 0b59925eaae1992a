// Reference programs for Layerfold's codec tests and benchmarks: the real encoders as oracles.
module dev.layerfold/testgo

go 1.21
