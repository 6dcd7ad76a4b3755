package grpc

type ServiceDesc struct{ ServiceName string }
type ServiceRegistrar interface {
	RegisterService(desc *ServiceDesc, impl any)
}
type Server struct{}

func NewServer() *Server                                      { return &Server{} }
func (s *Server) RegisterService(desc *ServiceDesc, impl any) {}
