def test_x(smtp_server):
    assert smtp_server.port
