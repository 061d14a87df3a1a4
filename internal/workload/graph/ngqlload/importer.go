package ngqlload

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// WriteImporterConfig writes a nebula-importer (v2 configuration format,
// as nebula-bench's template) YAML file that imports the persons and
// friendships of data set dir into space with the schema Load creates.
// It holds NebulaGraph's default credentials (root/nebula) and address as
// placeholders to edit, never the user's. Statements are the same as
// Load's; unlike Load, nebula-importer does not skip repeated or dangling
// friendships.
func WriteImporterConfig(w io.Writer, dir, space string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("# nebula-importer configuration written by `stampede gen ldbc --nebula-importer`.\n")
	b.WriteString("# Edit address/user/password; then: nebula-importer --config THIS_FILE\n")
	b.WriteString("version: v2\ndescription: ldbc snb (stampede)\nremoveTempFiles: false\n")
	b.WriteString("clientSettings:\n  retry: 3\n  concurrency: 10\n  channelBufferSize: 128\n")
	fmt.Fprintf(&b, "  space: %s\n", space)
	b.WriteString("  connection:\n    user: root        # NebulaGraph's default; edit\n    password: nebula  # NebulaGraph's default; edit\n    address: 127.0.0.1:9669\n")
	b.WriteString("  postStart:\n    commands: |\n")
	fmt.Fprintf(&b, "      %s;\n", CreateSpace(space, DefaultPartitions, DefaultReplicaFactor))
	fmt.Fprintf(&b, "      USE `%s`;\n", space)
	for _, q := range SchemaStatements() {
		fmt.Fprintf(&b, "      %s;\n", q)
	}
	fmt.Fprintf(&b, "      %s;\n", CreateIndex)
	b.WriteString("    afterPeriod: 20s\n")
	b.WriteString("logPath: ./err/stampede-ldbc.log\nfiles:\n")
	csv := func(path, name string) {
		fmt.Fprintf(&b, "  - path: %s\n    failDataPath: ./err/data/%s.csv\n    batchSize: %d\n    type: csv\n", filepath.Join(abs, path), name, DefaultBatch)
		b.WriteString("    csv:\n      withHeader: true\n      withLabel: false\n      delimiter: \"|\"\n")
	}
	csv(ldbcfile.PersonPath, PersonTag)
	b.WriteString("    schema:\n      type: vertex\n      vertex:\n        vid:\n          index: 0\n          type: int\n        tags:\n")
	fmt.Fprintf(&b, "          - name: %s\n            props:\n", PersonTag)
	types := []string{"string", "string", "string", "string", "datetime", "string", "string"}
	for i, p := range strings.Split(PersonProps, ", ") {
		fmt.Fprintf(&b, "              - name: %s\n                type: %s\n                index: %d\n", p, types[i], i+1)
	}
	csv(ldbcfile.PersonKnowsPersonPath, KnowsEdge)
	fmt.Fprintf(&b, "    schema:\n      type: edge\n      edge:\n        name: %s\n        withRanking: false\n", KnowsEdge)
	b.WriteString("        srcVID:\n          index: 0\n          type: int\n        dstVID:\n          index: 1\n          type: int\n")
	b.WriteString("        props:\n          - name: creationDate\n            type: datetime\n            index: 2\n")
	_, err = io.WriteString(w, b.String())
	return err
}
