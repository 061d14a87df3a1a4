package envinfo

import "testing"

func TestParseCPUInfo(t *testing.T) {
	info := []byte(`processor	: 0
model name	: Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz
physical id	: 0
core id		: 0

processor	: 1
model name	: Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz
physical id	: 0
core id		: 0

processor	: 2
model name	: Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz
physical id	: 1
core id		: 3
`)
	model, sockets, cores, threads := parseCPUInfo(info)
	if model != "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz" || sockets != 2 || cores != 2 || threads != 3 {
		t.Errorf("got %q %d sockets %d cores %d threads", model, sockets, cores, threads)
	}
}

func TestMemTotalAndSameHardware(t *testing.T) {
	if got := parseMemTotal([]byte("MemTotal:       24576000 kB\nMemFree: 1 kB\n")); got != 24576000*1024 {
		t.Errorf("mem = %d", got)
	}
	a := Collect()
	if ok, why := SameHardware(a, a); !ok {
		t.Errorf("same machine differs: %s", why)
	}
	b := a
	b.CPUModel = "other"
	if ok, _ := SameHardware(a, b); ok {
		t.Error("different CPU reported same")
	}
}
