package natscluster

// NodeName is node i's server name (n1, n2, ...).
func (c *Cluster) NodeName(i int) string { return c.nodes[i].Name }

// Index is the index of the node with server name name, -1 when none.
func (c *Cluster) Index(name string) int {
	for i, n := range c.nodes {
		if n.Name == name {
			return i
		}
	}
	return -1
}

// NodeTag is the server tag of the node named name: a stream placed with
// it (Placement.Tags) lands on that node.
func NodeTag(name string) string { return "stampede-node:" + name }
