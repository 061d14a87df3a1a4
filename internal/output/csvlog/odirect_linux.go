package csvlog

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// directFile is a regular file whose writes may bypass the page cache
// (directSink).
type directFile struct{ *os.File }

// SetDirect implements directSink.
func (f directFile) SetDirect(on bool) error {
	fd := int(f.Fd())
	fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	if err != nil {
		return err
	}
	if on {
		fl |= unix.O_DIRECT
	} else {
		fl &^= unix.O_DIRECT
	}
	_, err = unix.FcntlInt(uintptr(fd), unix.F_SETFL, fl)
	return err
}

// directOf returns f as a directSink with O_DIRECT on, or nil when f is
// no regular file or its file system refuses O_DIRECT.
func directOf(f *os.File) directSink {
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil
	}
	d := directFile{f}
	if d.SetDirect(true) != nil {
		return nil
	}
	return d
}

// hugePage is the size of a transparent huge page (x86-64, arm64 with
// 4 KiB pages).
const hugePage = 2 << 20

// stageMem returns n bytes for the stage (length 0, aligned to a huge
// page) and a func that releases them: anonymous memory of its own with
// transparent huge pages asked for (MADV_HUGEPAGE), so that an O_DIRECT
// write of the stage pins a few huge pages rather than a page per 4 KiB
// (gup_fast_fallback in the profile), and copying into it misses the
// TLB less. Where the mapping fails it is heapStage(n).
func stageMem(n int) ([]byte, func()) {
	m, err := unix.Mmap(-1, 0, n+hugePage, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		return heapStage(n), func() {}
	}
	skip := int(-uintptr(unsafe.Pointer(unsafe.SliceData(m))) & (hugePage - 1))
	b := m[skip : skip+n : skip+n]
	_ = unix.Madvise(b, unix.MADV_HUGEPAGE) // a hint: small pages work too
	return b[:0], func() { _ = unix.Munmap(m) }
}
