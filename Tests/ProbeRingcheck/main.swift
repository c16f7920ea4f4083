import AllProfiles
import Conformance
import Foundation
import Probe
import RingcheckCLI

// `ringcheck` with the probe registered (`Profiles.all + [ProbeProfile()]`): a test executable, so a test can
// serve the probe's reference out of process (`ProbeRingcheck serve-reference --profile probe --port 0`).
await Ringcheck.main(profiles: ProfileRegistry(Profiles.all + [ProbeProfile()]))
