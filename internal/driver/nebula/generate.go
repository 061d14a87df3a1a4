package nebula

// The Go code of package graphsvc is generated from graph.thrift, stampede's
// own minimal IDL of the graph service, by Debian's thrift-compiler 0.17
// (apt-get install thrift-compiler); go.mod pins github.com/apache/thrift
// v0.17.0 to match it.
//go:generate sh -c "thrift --gen go:package_prefix=github.com/stampede-bench/stampede/internal/driver/nebula/,skip_remote -out . graph.thrift && gofmt -w graphsvc"
