import RingcheckCLI

await Ringcheck.main()
