module example.com/e2e/unexportedmethod

go 1.26
