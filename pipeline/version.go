package pipeline

// Version is graphdp's version, recorded in every output's metadata.
const Version = "0.1.0"
