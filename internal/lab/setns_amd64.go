//go:build linux && amd64

package lab

// sysSetns is setns(2) on linux/amd64.
const sysSetns = 308
