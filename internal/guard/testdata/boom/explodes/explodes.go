// Package explodes makes the test analyzer "boom" panic at explode.
package explodes

func before() {}

func explode() {}

func after() {}
