//go:build linux && arm64

package lab

// sysSetns is setns(2) on linux/arm64.
const sysSetns = 268
