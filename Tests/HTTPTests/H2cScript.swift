/// Python (the `h2` library) that opens an h2c connection with prior knowledge to 127.0.0.1 on the
/// port in `sys.argv[1]`: `sock` and `conn`, the preface sent, and `read_stream(sid)`, which reads
/// until stream `sid` ends and returns its body. Scripts append what they do with it.
enum H2cScript {
    static let open = """
        import socket, sys
        import h2.connection, h2.config, h2.events
        sock = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
        conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True))
        conn.initiate_connection()
        sock.sendall(conn.data_to_send())
        def read_stream(sid):
            body, done = b"", False
            while not done:
                data = sock.recv(65536)
                if not data:
                    sys.exit("connection closed")
                for event in conn.receive_data(data):
                    if isinstance(event, h2.events.DataReceived) and event.stream_id == sid:
                        body += event.data
                        conn.acknowledge_received_data(event.flow_controlled_length, sid)
                    if isinstance(event, h2.events.StreamEnded) and event.stream_id == sid:
                        done = True
                sock.sendall(conn.data_to_send())
            return body

        """
}
