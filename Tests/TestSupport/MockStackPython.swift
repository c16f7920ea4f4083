import Foundation
import JSON

/// The Python a real backend would run against the mocks: Debian's `/usr/bin/python3` with PyJWT,
/// `cryptography` and `h2` (the `python3` on PATH may lack them). Each command prints one JSON value.
public enum MockStackPython {
    /// The interpreter that has the packages.
    public static let interpreter = "/usr/bin/python3"

    /// Runs one command of `script` and parses what it printed.
    /// `environment` adds variables (`https_proxy=…`) for this run only.
    public static func run(
        _ clients: MockStackClients, _ command: String, _ arguments: [String], timeout: Double = 30,
        environment: [String: String] = [:]
    ) async throws -> JSONValue {
        let variables = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let r =
            environment.isEmpty
            ? try await clients.run(interpreter, ["-c", script, command] + arguments, timeout: timeout)
            : try await clients.run(
                "env", variables + [interpreter, "-c", script, command] + arguments, timeout: timeout)
        guard r.status == 0, let value = try? JSONValue.parse(r.stdoutBytes) else {
            throw MockStackClientError(message: "python \(command) exited \(r.status): \(r.stderr)\(r.stdout)")
        }
        return value
    }

    /// The client script. Signing follows what backends do: PyJWT with the `.p8` file for APNs, the
    /// service-account JSON for Google; HTTP through urllib (TLS verified with the CA file) or h2.
    static let script = #"""
        import json, socket, ssl, sys, time, urllib.error, urllib.parse, urllib.request

        import h2.config, h2.connection, h2.events
        import jwt
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ec, rsa

        FCM_SCOPE = "https://www.googleapis.com/auth/firebase.messaging"
        GOOGLE_AUD = "https://oauth2.googleapis.com/token"


        def emit(value):
            print(json.dumps(value))


        def pem(key):
            return key.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
            ).decode()


        def http(url, ca_file, data=None, headers=None, method=None):
            """One request the way a Python backend makes it: urllib over TLS verified with the CA file."""
            context = ssl.create_default_context(cafile=ca_file)
            req = urllib.request.Request(url, data=data, headers=headers or {}, method=method)
            try:
                with urllib.request.urlopen(req, context=context, timeout=10) as r:
                    return {"status": r.status, "body": r.read().decode(), "headers": {k.lower(): v for k, v in r.headers.items()}}
            except urllib.error.HTTPError as e:
                return {"status": e.code, "body": e.read().decode(), "headers": {k.lower(): v for k, v in e.headers.items()}}


        def apns_tokens(key_file, kid, team):
            """Provider tokens signed by PyJWT from the .p8 file: one valid and several a real APNs refuses."""
            key = open(key_file).read()
            now = int(time.time())

            def sign(claims, signing_key=key, k=kid, alg="ES256"):
                return jwt.encode(claims, signing_key, algorithm=alg, headers={"kid": k})

            emit({
                "valid": sign({"iss": team, "iat": now}),
                "renewed": sign({"iss": team, "iat": now - 1}),
                "expired": sign({"iss": team, "iat": now - 3700}),
                "foreignKey": sign({"iss": team, "iat": now}, pem(ec.generate_private_key(ec.SECP256R1()))),
                "wrongKeyID": sign({"iss": team, "iat": now}, k="ABCDEFGHIJ"),
                "wrongTeam": sign({"iss": "ZZZZZZZZZZ", "iat": now}),
                "hs256": sign({"iss": team, "iat": now}, "not-the-key", alg="HS256"),
                "floatIat": sign({"iss": team, "iat": now + 0.25}),
                "stringIat": sign({"iss": team, "iat": str(now)}),
            })


        def assertion(account, signing_key=None):
            now = int(time.time())
            claims = {"iss": account["client_email"], "scope": FCM_SCOPE, "aud": GOOGLE_AUD, "iat": now, "exp": now + 3600}
            return jwt.encode(
                claims, signing_key or account["private_key"], algorithm="RS256", headers={"kid": account["private_key_id"]}
            )


        def exchange(account, ca_file, signed):
            form = urllib.parse.urlencode({"grant_type": "urn:ietf:params:oauth:grant-type:jwt-bearer", "assertion": signed})
            return http(account["token_uri"], ca_file, form.encode(), {"Content-Type": "application/x-www-form-urlencoded"}, "POST")


        def google_send(account_file, ca_file, fcm_url, messages_json, token_uri=""):
            """The Google flow: sign the assertion, get an access token from token_uri, send each message to FCM."""
            account = json.load(open(account_file))
            if token_uri:  # as SDKs default it, e.g. the real https://oauth2.googleapis.com/token
                account["token_uri"] = token_uri
            token = exchange(account, ca_file, assertion(account))
            result = {"oauth": token, "sends": []}
            if token["status"] != 200:
                emit(result)
                return
            access = json.loads(token["body"])["access_token"]
            result["accessToken"] = access
            url = "%s/v1/projects/%s/messages:send" % (fcm_url, account["project_id"])
            for message in json.loads(messages_json):
                headers = {"Authorization": "Bearer " + access, "Content-Type": "application/json; UTF-8"}
                result["sends"].append(http(url, ca_file, json.dumps(message).encode(), headers, "POST"))
            emit(result)


        def oauth_forged(account_file, ca_file):
            """An assertion with the account's kid and email but signed by another RSA key."""
            account = json.load(open(account_file))
            other = pem(rsa.generate_private_key(public_exponent=65537, key_size=2048))
            emit(exchange(account, ca_file, assertion(account, other)))


        def h2_request(host, port, ca_file, path, headers_json, body, settle, alpn="h2", server_name="", raw="",
                       trailers_json="", trailers_end="end"):
            """One HTTP/2 request with the h2 library; reports every frame-level event until the server is done.
            With server_name, connects to host but names server_name in SNI and :authority (as a hosts entry would).
            With raw, headers_json is the whole header list, pseudo-headers too, sent as given: h2 neither checks
            nor normalizes it (a malformed request, as a broken client would send). With trailers_json, trailers
            follow the body, ending the stream unless trailers_end is empty."""
            context = ssl.create_default_context(cafile=ca_file)
            if alpn:  # Some APNs clients offer no ALPN at all and still speak h2.
                context.set_alpn_protocols([alpn])
            sni = server_name or host
            sock = context.wrap_socket(socket.create_connection((host, int(port)), timeout=5), server_hostname=sni)
            conn = h2.connection.H2Connection(config=h2.config.H2Configuration(
                client_side=True, header_encoding="utf-8", validate_outbound_headers=not raw,
                normalize_outbound_headers=not raw))
            conn.initiate_connection()
            stream = conn.get_next_available_stream_id()
            headers = [] if raw else [
                (":method", "POST"), (":scheme", "https"), (":authority", "%s:%s" % (sni, port)), (":path", path)]
            headers += [tuple(h) for h in json.loads(headers_json)]
            conn.send_headers(stream, headers)
            conn.send_data(stream, body.encode(), end_stream=not trailers_json)
            out = conn.data_to_send()
            if trailers_json:
                conn.send_headers(stream, [tuple(h) for h in json.loads(trailers_json)], end_stream=True)
                trailer_frames = bytearray(conn.data_to_send())
                if not trailers_end:
                    trailer_frames[4] &= ~0x1  # h2 refuses to send trailers without END_STREAM: clear it on the wire
                out += bytes(trailer_frames)
            sock.sendall(out)
            events, ended, deadline = [], False, time.time() + 10
            sock.settimeout(float(settle))
            while time.time() < deadline:
                try:
                    data = sock.recv(65535)
                except socket.timeout:
                    if ended:
                        break
                    continue
                except (ConnectionResetError, BrokenPipeError) as e:
                    events.append({"type": "reset", "error": str(e)})
                    break
                if not data:
                    events.append({"type": "eof"})
                    break
                for event in conn.receive_data(data):
                    if isinstance(event, h2.events.RemoteSettingsChanged):
                        changed = {str(int(k)): v.new_value for k, v in event.changed_settings.items()}
                        events.append({"type": "settings", "changed": changed})
                    elif isinstance(event, h2.events.ResponseReceived):
                        events.append({"type": "response", "headers": dict(event.headers)})
                    elif isinstance(event, h2.events.DataReceived):
                        conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                        events.append({"type": "data", "data": event.data.decode(errors="replace")})
                    elif isinstance(event, h2.events.StreamEnded):
                        ended = True
                        events.append({"type": "streamEnded"})
                    elif isinstance(event, h2.events.StreamReset):
                        events.append({"type": "streamReset", "errorCode": int(event.error_code)})
                    elif isinstance(event, h2.events.ConnectionTerminated):
                        events.append({
                            "type": "goaway", "errorCode": int(event.error_code), "lastStreamId": event.last_stream_id,
                            "debug": (event.additional_data or b"").decode(errors="replace"),
                        })
                pending = conn.data_to_send()
                if pending:
                    try:
                        sock.sendall(pending)
                    except OSError:
                        pass
                if events and events[-1]["type"] == "goaway":
                    break
            sock.close()
            emit(events)


        COMMANDS = {
            "apns-tokens": apns_tokens,
            "google-send": google_send,
            "oauth-forged": oauth_forged,
            "h2-request": h2_request,
        }

        if __name__ == "__main__":
            COMMANDS[sys.argv[1]](*sys.argv[2:])
        """#
}
