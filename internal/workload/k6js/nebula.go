package k6js

import "github.com/dop251/goja"

// nebulaShared and nebulaState hold k6/x/nebulagraph's pool and session.
type nebulaShared struct{}
type nebulaState struct{}

func (v *vm) nebulaModule() goja.Value {
	return v.refuse("%s: module k6/x/nebulagraph is not supported by this build of stampede yet", v.sh.script.Path)
}
