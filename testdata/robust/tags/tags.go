// Package tags has a finding only in a file behind the robusttag build tag.
package tags

// Name names the package.
const Name = "tags"
