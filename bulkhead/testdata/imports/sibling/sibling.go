package sibling
