module example.com/modprobe

go 1.22

require example.com/apiclient v0.0.0

replace example.com/apiclient => ./apiclient
