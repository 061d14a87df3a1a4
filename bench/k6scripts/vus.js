// Start-up and memory per VU: run with -u N -i N (each VU does about one iteration).
export default function () {}
