/// Python (the `h2` library) that opens an h2c connection with prior knowledge to 127.0.0.1 on the
/// port in `sys.argv[1]`: `sock` and `conn`, the preface sent. Scripts append what they do with it.
enum H2cScript {
    static let open = """
        import socket, sys
        import h2.connection, h2.config, h2.events
        sock = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
        conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True))
        conn.initiate_connection()
        sock.sendall(conn.data_to_send())

        """
}
